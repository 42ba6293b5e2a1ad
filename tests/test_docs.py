"""The documentation site: every Python example of its pages runs, and the
site builds strictly (a broken link, reference or docstring fails)."""

import contextlib
import io
import pathlib
import re
import subprocess
import sys

import pytest

ROOT = pathlib.Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"
PYTHON_BLOCK = re.compile(r"^```python\n(.*?)^```$", re.DOTALL | re.MULTILINE)
PAGES = sorted(DOCS.glob("*.md"))
#: An example's comment `# prints TEXT` is checked: TEXT is in its output.
PRINTS = re.compile(r"# prints (.+)$", re.MULTILINE)


def python_blocks(text):
    return PYTHON_BLOCK.findall(text)


def test_the_blocks_are_found_and_only_the_python_ones():
    text = "a\n```python\nx = 1\n```\n```bash\nls\n```\n```python\ny = x\n```\n"
    assert python_blocks(text) == ["x = 1\n", "y = x\n"]


@pytest.mark.large
@pytest.mark.parametrize("page", PAGES, ids=[page.name for page in PAGES])
def test_every_example_of_the_page_runs(page, tmp_path, monkeypatch):
    """A page's examples run in order in one namespace, as a reader would
    paste them, from an empty working directory; what they say they print,
    they print."""
    blocks = python_blocks(page.read_text())
    if not blocks:
        pytest.skip("no Python example")
    monkeypatch.chdir(tmp_path)
    monkeypatch.syspath_prepend(str(ROOT))
    namespace = {"__name__": "__docs__"}
    for number, block in enumerate(blocks, 1):
        printed = io.StringIO()
        with contextlib.redirect_stdout(printed):
            exec(compile(block, f"{page.name}, example {number}", "exec"), namespace)
        for text in PRINTS.findall(block):
            assert text in printed.getvalue(), (number, printed.getvalue())


@pytest.mark.large
def test_the_site_builds_strictly(tmp_path):
    result = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "-d", str(tmp_path)],
        cwd=ROOT,
        capture_output=True,
        text=True,
    )
    assert result.returncode == 0, result.stderr[-3000:]
    page = (tmp_path / "api" / "layers" / "NAU.html").read_text()
    for shown in ("Call arguments", "Input shape", "Output shape", "Examples"):
        assert shown in page
    # Keras's sections rendered (docs/keras_sections.py), not left as text
    for rendered in (
        'class="call-arguments"',
        "<strong>Input shape</strong>",
        "language-pycon",
        'class="references"',
    ):
        assert rendered in page, rendered
    assert "arxiv.org/abs/2001.05016" in page  # the reference
    assert "<math" in (tmp_path / "index.html").read_text()  # MathML
    # opened from disk (file://, no server): every link to a page of the
    # site names a file (a folder shows a directory listing); the 404 page
    # is a server's
    for html in set(tmp_path.rglob("*.html")) - {tmp_path / "404.html"}:
        for link in re.findall(r'href="([^"#?]*)', html.read_text()):
            if link and not re.match(r"[a-z]+:", link):
                assert (html.parent / link).is_file(), (html, link)
    units = (tmp_path / "units.html").read_text()
    assert "(Madsen &amp; Johansen 2020, eq. 14.)" in units and "\\&amp;" not in units
    initialisation = (tmp_path / "regularizers.html").read_text()
    assert re.search(
        r'id="initialisation".*?</h2>\s*<p>Every unit maps', initialisation, re.S
    )
