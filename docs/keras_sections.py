"""A Griffe extension (`mkdocs.yml`) that renders Keras's docstring sections.

keras_nalm's docstrings follow Keras's layout, written for `help()`:

    Call arguments:
        inputs: ...
    Input shape: `(batch_size, input_dim)`.
    Output shape: `(batch_size, units)`.

    Example:
    >>> layer = NAU(2)

    Reference:
    - [Madsen & Johansen, 2020](https://arxiv.org/abs/2001.05016), §2.2.

Griffe's Google parser knows `Args:` and indented `Examples:` only, so this
extension rewrites the others into what it renders: the call arguments and
the references as titled blocks with a list, the shapes as labelled lines,
and an example's `>>>` lines as an `Examples:` section.
"""

import re

import griffe

ITEM = re.compile(r"^(\*{0,2}\w+): ")
LISTED = ("Call arguments:",)
INDENTED = ("Reference:", "References:")
SHAPES = ("Input shape:", "Output shape:")


def _block(lines, start):
    """The lines after the title at `start` up to the next blank line (a
    Keras section ends there), and the index after them."""
    end = start + 1
    while end < len(lines) and lines[end].strip():
        end += 1
    return lines[start + 1 : end], end


def _listed(block):
    """`name: description` items (continuation lines indented) as a list."""
    items = []
    for line in block:
        stripped = line.strip()
        match = ITEM.match(stripped)
        if match and line.startswith("    ") and not line.startswith("     "):
            items.append(f"- `{match.group(1)}`: {stripped[match.end() :]}")
        elif items:
            items[-1] += f" {stripped}"
        else:
            items.append(stripped)
    return [f"    {item}" for item in items]


def keras_to_google(text):
    """The docstring `text` with Keras's sections in Griffe's forms."""
    lines = text.splitlines()
    output = []
    index = 0
    while index < len(lines):
        line = lines[index]
        title = line.strip()
        if title in LISTED:
            block, index = _block(lines, index)
            output += [title, *_listed(block)]
            continue
        if title in ("Example:", "Examples:"):
            block, index = _block(lines, index)
            output += ["Examples:", *(f"    {part.strip()}" for part in block)]
            continue
        if title in INDENTED:
            block, index = _block(lines, index)
            output += ["References:", *(f"    {part.strip()}" for part in block)]
            continue
        if title.startswith(SHAPES) and not line.startswith(" "):
            label, _, rest = title.partition(":")
            index += 1
            while index < len(lines) and lines[index].startswith(" "):
                rest += " " + lines[index].strip()  # a wrapped shape
                index += 1
            output += [f"**{label}**: {rest.strip()}", ""]
            continue
        output.append(line)
        index += 1
    return "\n".join(output)


class KerasSections(griffe.Extension):
    """Rewrites each class's and function's docstring before it is parsed."""

    def on_instance(self, *, obj, **kwargs):
        if obj.docstring is not None and not obj.is_module:
            obj.docstring.value = keras_to_google(obj.docstring.value)
