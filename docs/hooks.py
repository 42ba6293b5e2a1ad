"""MkDocs hooks of the documentation site (`mkdocs.yml` names this file).

- The API reference is generated: a page per public name (`__all__`) of
  each package below, and a page per module for the smaller modules, each
  rendered by mkdocstrings from the docstrings; the hook adds them to the
  navigation, so a new public class gets its page without editing anything.
- Mathematics written `$...$` or `$$...$$` (pymdownx.arithmatex, generic
  mode) is converted to MathML at build time (latex2mathml), which browsers
  render without JavaScript or a download.
"""

import html
import pathlib
import re

import griffe
from latex2mathml.converter import convert
from mkdocs.structure.files import File

ROOT = pathlib.Path(__file__).resolve().parent.parent

#: (section title, package): a page per name of the package's `__all__`.
PACKAGES = (
    ("Layers and cells", "keras_nalm.layers"),
    ("Callbacks", "keras_nalm.callbacks"),
    ("Engine (TensorFlow)", "keras_nalm.engine"),
)
#: (title, module): a page for the module's public names.
MODULES = (
    ("Regularizers", "keras_nalm.regularizers"),
    ("Constraints", "keras_nalm.constraints"),
    ("Initializers", "keras_nalm.initializers"),
    ("Optimizers", "keras_nalm.optimizers"),
    ("Reading the learned arithmetic", "keras_nalm.describe"),
    ("Saving and loading", "keras_nalm.saving"),
    ("Export for serving", "keras_nalm.export"),
    ("Symbolic expressions", "keras_nalm.symbolic"),
    ("Testing units of your own", "keras_nalm.testing"),
)


def public_classes_and_functions(package):
    """The classes and functions of a package's `__all__`, in its order,
    read statically (constants are documented on their module's page)."""
    loaded = griffe.load(package, search_paths=[str(ROOT)])
    return [
        name
        for name in loaded.exports
        if loaded[name].is_class or loaded[name].is_function
    ]


def api_pages():
    """{section title: [(page title, page path, page text)]}."""
    sections = {}
    for title, package in PACKAGES:
        folder = package.rsplit(".", 1)[1]
        sections[title] = [
            (name, f"api/{folder}/{name}.md", f"::: {package}.{name}\n")
            for name in public_classes_and_functions(package)
        ]
    sections["Modules"] = [
        (title, f"api/{module.rsplit('.', 1)[1]}.md", f"::: {module}\n")
        for title, module in MODULES
    ]
    return sections


#: This build's API pages: read once, in `on_config`, for the nav and the files.
_BUILD = {}


def on_config(config):
    _BUILD["pages"] = api_pages()
    reference = [
        {section: [{title: path} for title, path, _ in pages]}
        for section, pages in _BUILD["pages"].items()
    ]
    config["nav"].append({"API reference": reference})
    return config


def on_files(files, config):
    for pages in _BUILD["pages"].values():
        for _, path, text in pages:
            files.append(File.generated(config, path, content=text))
    return files


_DISPLAY = re.compile(r'<div class="arithmatex">\\\[(.*?)\\\]</div>', re.DOTALL)
_INLINE = re.compile(r'<span class="arithmatex">\\\((.*?)\\\)</span>', re.DOTALL)


def _mathml(display):
    def replace(match):
        return convert(
            html.unescape(match.group(1)).strip(),
            display="block" if display else "inline",
        )

    return replace


def on_post_page(output, page, config):
    output = _DISPLAY.sub(_mathml(display=True), output)
    return _INLINE.sub(_mathml(display=False), output)
