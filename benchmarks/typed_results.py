"""Result numbers typed by hand on the results pages, outside any claim.

A results page writes every result as a claim (`benchmarks.claims`); a
number of a result's shape in the prose is therefore a number nobody
recomputes. The shapes found here are those results take on the pages:

- a rate: "98.5 %", "2.3-3.6 %" (but not a confidence or significance
  level: "95 % interval", "95 % CI", "the 5 % level");
- a count of runs: "97 of 100", "205 of the 207";
- a time: "12 minutes", "500 s", "1.5 h";
- a ratio: "3.4x", "2-3×", "28 times", "5-fold";
- a magnitude as the claims print one, an MSE or a mean: "2.98·10⁵",
  "1.4·10⁻⁸" (but not a step count or a schedule: "5·10⁶ steps",
  "10⁶ → 2·10⁶");
- a reading of a curve: "0.104 from step 7 000", "75 at step 17 000"
  (but not a schedule: "λ = 10 from step 20 000");
- a number quoted from a paper: "paper 32.2", "paper: 88-124", "table
  8's 0.47", "table 12: < 10⁻⁴", "the paper reports 0.0" (but not the
  paper's configuration: "the paper's 200 000 steps", "the paper's 1 024
  units"), which a `paper` claim reads from the task's `published/`
  tables.
- a bound, as a paper prints one: ">999.9", "< 0.0001" (but not a
  significance level or a condition: "p < 0.05", "x < 0");
- a rough value: "about 0.5", "~500", "≈ 17", "roughly 2-3"
  (but not a size or a budget: "~23.5 k parameters", "about 13
  characters", "about 8 CPU-hours").

A number is reported once, in the first shape above that holds it ("paper
2.3 %" is a rate).

Claims, HTML comments, code (fenced blocks and inline spans, where the
commands' arguments are), mathematics (`$...$` and `$$...$$`: an
equation's constants and bounds, "x'_j < 0") and link targets are not
read. Configuration
values in other shapes (ranges, step counts, seeds, ε) are not results
and are left alone.

`python -m benchmarks.claims --check` fails on a typed result (a
sentence added with one), and `python -m benchmarks.claims --typed`
lists them, for turning into claims.
"""

import os
import re

from benchmarks.provenance import CLAIM
from benchmarks.provenance import CODE

_COMMENT = re.compile(r"<!--.*?-->", re.DOTALL)
_LINK_TARGET = re.compile(r"\]\([^)]*\)")
_DISPLAY_MATH = re.compile(r"\$\$.*?\$\$", re.DOTALL)
_INLINE_MATH = re.compile(r"(?<!\\)\$[^$\n]+\$")
_NOT_READ = (
    CLAIM,
    _COMMENT,
    CODE,
    _DISPLAY_MATH,
    _INLINE_MATH,
    _LINK_TARGET,
)

_NUMBER = r"[−-]?\d+(?:[ ,]\d{3})*(?:\.\d+)?(?![\d.]\d)"
_SPAN = rf"(?<![\w.]){_NUMBER}(?:\s*[-–…]\s*{_NUMBER})?"
SHAPES = {
    "rate": re.compile(rf"{_SPAN}\s*%(?!\s*(?:interval|CI\b|confidence|bound|level))"),
    "count": re.compile(rf"(?<![\w.]){_NUMBER}\s+of\s+(?:the\s+)?{_NUMBER}(?!\w)"),
    "time": re.compile(
        rf"{_SPAN}\s*(?:s|ms|seconds?|min|minutes?|h|hours?|days?)(?![\w-])"
    ),
    "ratio": re.compile(rf"{_SPAN}\s*(?:×|x(?![\w-])|times(?!\w)|-fold)"),
    "magnitude": re.compile(
        r"(?<![\w.])(?<!→ )\d+(?:\.\d+)?·10[⁻⁰¹²³⁴⁵⁶⁷⁸⁹]+(?!\s*(?:steps|updates|→))"
    ),
    "reading": re.compile(
        rf"(?<!=\s){_SPAN}(?![\d·]|\s\d)(?=[ \n](?:at|from|until|by|after)[ \n]"
        r"(?:its[ \n])?(?:steps?|epochs?|evaluations?)\b)"
    ),
    "quote": re.compile(
        r"(?:\b[Pp]aper(?:'s)?:?|\b[Tt]able \d+(?:'s|:)?)"
        r"(?:\s+(?:reports|gives|prints))?\s+[<>]?\s*"
        rf"(?P<number>{_SPAN}[⁻⁰¹²³⁴⁵⁶⁷⁸⁹]*)(?![\d·]|\s\d)"
        r"(?!\s*(?:steps|updates|units|seeds|epochs|configurations|runs|digits|on\b))"
    ),
    "bound": re.compile(
        rf"(?<![\w=<>-])(?<!\b[A-Za-zε] )[<>]\s?(?P<number>{_SPAN}[⁻⁰¹²³⁴⁵⁶⁷⁸⁹]*)"
    ),
    "rough value": re.compile(
        r"(?:~|≈\s*|\b(?:about|around|roughly|nearly)\s+)"
        rf"(?P<number>{_SPAN})(?![\d·]|\s\d)"
        r"(?!\s*(?:k\b|steps|updates|units|parameters|seeds|epochs|digits"
        r"|characters|runs|configurations|CPU-hours))"
    ),
}


def _blanked(match):
    """The match as spaces, its line breaks kept (line numbers stay)."""
    return re.sub(r"[^\n]", " ", match.group(0))


def typed_results(text):
    """[(line, kind, text)] of each result number of `text` outside claims,
    comments, code and link targets, in the order of the page."""
    for pattern in _NOT_READ:
        text = pattern.sub(_blanked, text)
    found, taken = [], []
    for kind, pattern in SHAPES.items():
        for match in pattern.finditer(text):
            group = "number" if "number" in pattern.groupindex else 0
            start, end = match.span(group)
            if any(
                start < other_end and other_start < end
                for other_start, other_end in taken
            ):
                continue
            taken.append((start, end))
            line = text.count("\n", 0, start) + 1
            found.append((line, kind, " ".join(text[start:end].split())))
    return sorted(found)


def problems(pages, relative_to):
    """["PAGE:LINE: 'TEXT' is a KIND typed outside a claim"] of every typed
    result of `pages` (page paths relative to `relative_to`)."""
    found = []
    for page in pages:
        name = os.path.relpath(page, relative_to)
        with open(page, encoding="utf-8") as handle:
            for line, kind, text in typed_results(handle.read()):
                found.append(
                    f"{name}:{line}: {text!r} is a {kind} typed outside a claim"
                )
    return found
