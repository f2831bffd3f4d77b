"""Cell text <-> Python: IPython syntax is masked so libcst and jedi can read a cell.

Every masked construct becomes a placeholder name on the same line, so line numbers stay
true; `unmask` puts the user's text back after a rewrite.
"""

from __future__ import annotations

import ast
import re
import textwrap
from dataclasses import dataclass, field
from functools import lru_cache

# Cell magics whose body is Python; any other cell magic (%%bash, %%html...) is not analysed.
PYTHON_CELL_MAGICS = frozenset({"time", "timeit", "prun", "capture", "debug", "paef", "python", "python3", "py"})

_PLACEHOLDER = "__paef_masked_{}__"
_PLACEHOLDER_RE = re.compile(r"__paef_masked_(\d+)__")
# `x = %magic ...` / `x = !cmd`
_ASSIGNED_ESCAPE = re.compile(r"^(\s*[\w.\[\], ]+?\s*=\s*)([%!].*)$")
_LINE_ESCAPE = re.compile(r"^(\s*)([%!?].*)$")
_HELP_SUFFIX = re.compile(r"^(\s*)([\w.]+\?\??)\s*$")
# IPython's automagic: a line magic written without `%` (`cd drive/My Drive/project` in Colab,
# `pip install x`). Masked only where the line is not Python by itself (`time = 5` is).
_AUTOMAGIC = re.compile(r"^(\s*)((?:cd|pwd|ls|ll|pip|conda|env|mkdir|cat|rm|cp|mv|load_ext|reload_ext|matplotlib|run"
                        r"|time|timeit|who|whos|history|lsmagic)(?:\s.*)?)$")


@dataclass(frozen=True)
class MaskedSource:
    text: str
    originals: tuple[str, ...] = ()
    python: bool = True  # False for a non-Python cell magic: nothing to analyse
    parses: bool = field(default=False, compare=False)  # `ast.parse` already accepted `text`

    def unmask(self, text: str) -> str:
        return _PLACEHOLDER_RE.sub(lambda m: self.originals[int(m.group(1))], text)


def cell_magic_name(text: str) -> str | None:
    first = text.lstrip("\n").split("\n", 1)[0].strip()
    if first.startswith("%%"):
        return first[2:].split(None, 1)[0] if len(first) > 2 else ""
    return None


@lru_cache(maxsize=64)
def mask(text: str) -> MaskedSource:
    """Make `text` parseable Python with the same lines, or say it is not Python.

    Cached: the analysis, the fixer and every fix's diff in a report mask the same text, and
    masking plain Python costs a full `ast` parse."""
    magic = cell_magic_name(text)
    if magic is not None and magic not in PYTHON_CELL_MAGICS:
        return MaskedSource(text, (), python=False)
    if magic is None and _parses(text):
        return MaskedSource(text, parses=True)
    originals: list[str] = []

    def hide(original: str) -> str:
        originals.append(original)
        return _PLACEHOLDER.format(len(originals) - 1)

    out: list[str] = []
    for line in text.split("\n"):
        m = _ASSIGNED_ESCAPE.match(line) or _LINE_ESCAPE.match(line)
        if m and not line.lstrip().startswith("#"):
            out.append(m.group(1) + hide(m.group(2)))
            continue
        m = _HELP_SUFFIX.match(line) or _AUTOMAGIC.match(line)
        if m and not (m.re is _AUTOMAGIC and _parses(line.strip())):
            out.append(m.group(1) + hide(m.group(2)))
            continue
        out.append(line)
    return MaskedSource(_without_common_indent("\n".join(out)), tuple(originals))


def _without_common_indent(text: str) -> str:
    """IPython removes a cell's common leading indentation before running it (its
    `leading_indent` cleanup, `textwrap.dedent`): ` x = f(1)` pasted with a stray space runs.
    Lines keep their numbers; only a text that does not parse as it is but does without the
    indentation is changed."""
    first = next((line for line in text.split("\n") if line.strip()), "")
    if not first[:1].isspace():
        return text  # a line without indentation: nothing is common to remove
    dedented = textwrap.dedent(text)
    return dedented if dedented != text and not _parses(text) and _parses(dedented) else text


def _parses(text: str) -> bool:
    try:
        ast.parse(text)
    except (SyntaxError, ValueError):
        return False
    return True


def syntax_error(text: str) -> tuple[int | None, str] | None:
    """(line, one-line message) if masked `text` does not parse, else None."""
    try:
        ast.parse(text)
    except SyntaxError as exc:
        return exc.lineno, f"SyntaxError: {exc.msg}"
    except ValueError as exc:  # e.g. source with NUL bytes
        return None, f"ValueError: {exc}"
    return None
