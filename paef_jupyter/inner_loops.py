"""Measured inner loops over a tensor's rows or elements: the dynamic side of `elementwise-loop`.

A static rule sees an element loop only in the shapes it knows (truth70 e04: a hand-written row
softmax, `for i in range(scores.shape[0]): e = torch.exp(scores[i] - scores[i].max()); out[i] = e /
e.sum()`, in a helper; no rule fired and the profile found nothing, as its time is torch ops, not
work outside torch). The profile has the fact the static side lacks: the body's lines ran many
times per iteration of the windowed loop, each pass a few torch ops on a slice, and the ops are
small (dispatch-bound: microseconds each). That is the element loop's cost whatever its shape; its
fix, one batched op per line, is what `elementwise-loop` proposes.

Pure: profile lines and source text in, blocks of lines out. The cost (and its backward) is
judged by the caller (`correlate`).
"""

from __future__ import annotations

import ast
import re
import textwrap
from dataclasses import dataclass
from typing import Callable, Iterable

from .model import LineStat

LineKey = tuple[tuple[str | None, int | None], int]

# Passes per iteration of the window from which an inner loop's body counts as a loop over elements
# or rows: fewer are chunks or micro-batches (gradient accumulation), whose passes do real work.
MIN_PASSES = 16
# The ops of such a loop are small: their mean time (dispatch, a row's arithmetic) stays under this,
# a generous bound for a loaded box (truth70 e04: 15 us per op at load 8). A loop over layers or
# chunks whose ops compute (a matmul on a block) is above it and is not an element loop.
SMALL_OP_S = 100e-6
# `for v in <iterable>:` whose iterable walks a tensor's rows or elements (or a pair of them), not a
# container of modules or parameters: `range(...)` of a size, `zip(...)`/`enumerate(...)` of names,
# or a plain name.
_HEADER = re.compile(r"\s*for\s+(?P<target>[^:]+?)\s+in\s+(?P<iter>.+?)\s*:\s*(#.*)?$")
_SIZED_RANGE = re.compile(r"range\((.*(\.shape\b|\.size\(|len\(|\.numel\().*)\)$")
_OF_NAMES = re.compile(r"(zip|enumerate)\(\s*[A-Za-z_][\w\[\]:, .]*\)$")
_MODULE_WALKS = re.compile(r"\b(self\.|parameters\(|modules\(|children\(|named_|state_dict\(|param|layers|blocks)",
                           re.IGNORECASE)


@dataclass(frozen=True)
class InnerLoop:
    header: int  # the `for` line
    lines: tuple[LineStat, ...]  # its body's measured lines, in order
    passes: float  # body passes per entry into the loop (per call of its function)
    ops_per_pass: float
    op_s: float  # mean time of one of its ops


def element_loop_header(text: str) -> bool:
    """The `for` line walks a tensor's rows or elements by its look (a size's `range`, a `zip` or
    `enumerate` of names, a name), not modules, parameters or an object's list."""
    m = _HEADER.match(text)
    if m is None or _MODULE_WALKS.search(m.group("iter")):
        return False
    it = m.group("iter")
    return bool(_SIZED_RANGE.match(it) or _OF_NAMES.match(it) or re.fullmatch(r"[A-Za-z_]\w*", it))


def element_loop_body(header: str, body: list[str]) -> bool:
    """The body uses its loop variable as a row or element: a `range` loop's index subscripts
    something (`t[i]`, `out[i] = ...`), and no loop variable is called (`layer(x)`: a list of
    modules or functions, each pass its own work) or read as a parameter (`p.grad`, `p.data`)."""
    m = _HEADER.match(header)
    if m is None:
        return False
    names = re.findall(r"[A-Za-z_]\w*", m.group("target"))
    text = "\n".join(body)
    if any(re.search(rf"\b{re.escape(n)}\s*\(|\b{re.escape(n)}\.(grad|data)\b", text) for n in names):
        return False  # a callable, or a parameter (a hand-written optimizer's loop: its passes are tensors)
    if _recurrent(body):
        return False
    if m.group("iter").startswith("range("):
        return any(re.search(rf"\[[^\]]*\b{re.escape(n)}\b", text) for n in names)
    return True


def _recurrent(body: list[str]) -> bool:
    """A pass feeds its result to the next through a call (`h = cell(x[:, t], h)`, an RNN's time
    steps; a sampler's `x = step(x, t)`): a recurrence, which no batched op replaces. A sum carried
    by `+=` is not (one reduction does every pass)."""
    try:
        tree = ast.parse(textwrap.dedent("\n".join(body)))
    except SyntaxError:
        return False
    for node in ast.walk(tree):
        if not isinstance(node, (ast.Assign, ast.AnnAssign)) or node.value is None:
            continue
        targets = node.targets if isinstance(node, ast.Assign) else [node.target]
        bound = {n for t in targets for n in _plain_names(t)}  # `out[i] = ...` writes a row: carries nothing
        for call in (c for c in ast.walk(node.value) if isinstance(c, ast.Call)):
            args = [*call.args, *(k.value for k in call.keywords)]
            if any(isinstance(n, ast.Name) and n.id in bound for a in args for n in ast.walk(a)):
                return True
    return False


def _plain_names(target: ast.expr) -> list[str]:
    if isinstance(target, ast.Name):
        return [target.id]
    if isinstance(target, (ast.Tuple, ast.List)):
        return [n for el in target.elts for n in _plain_names(el)]
    return []


def inner_loops(lines: Iterable[LineStat], text_of: Callable[[LineKey], str | None],
                skip: set[LineKey], wait_share: float = 0.0) -> list[InnerLoop]:
    """Blocks of consecutive measured lines of one unit, each run MIN_PASSES times or more per
    window iteration, right under a `for` line that looks like an element loop (and ran as often)
    whose body uses its variable as a row or element, with small ops. `skip`: lines that are
    findings already (a static rule saw the loop); `wait_share`: the share of the profiled time the
    cell waited for a CPU, taken out of the ops' time.
    """
    by_unit: dict[object, list[LineStat]] = {}
    for stat in lines:
        by_unit.setdefault(stat.ref.key, []).append(stat)
    found: list[InnerLoop] = []
    for key, stats in by_unit.items():
        stats.sort(key=lambda s: s.line)
        at = {s.line: s for s in stats}
        for head in stats:
            n = head.iterations
            text = text_of((key, head.line))
            if not n or text is None or not element_loop_header(text) or head.hits < MIN_PASSES * n:
                continue
            indent = len(text) - len(text.lstrip())
            body: list[LineStat] = []
            texts: list[str] = []
            line = head.line + 1
            while True:
                body_text = text_of((key, line))
                if body_text is None:
                    break
                if body_text.strip() and not body_text.lstrip().startswith("#"):
                    if len(body_text) - len(body_text.lstrip()) <= indent:
                        break
                    texts.append(body_text)
                    stat = at.get(line)
                    if stat is not None:
                        body.append(stat)
                line += 1
            if not element_loop_body(text, texts):
                continue
            body = [s for s in body if s.hits >= MIN_PASSES * n]
            ops = sum(s.ops for s in body)
            if not body or not ops or any((key, s.line) in skip for s in (head, *body)):
                continue
            # an op's time holds the CPU waits that fell in it: on a busy box (`Profile.cpu_wait_share`) the
            # ops of this same loop measured 15 us at load 8 and 53 us at load 12 (truth70 e04)
            op_s = sum(s.op_time_s for s in body) / ops * (1.0 - min(max(wait_share, 0.0), 0.9))
            if op_s > SMALL_OP_S:
                continue
            hits = max(s.hits for s in body)
            # each entry into the loop runs its `for` line once more than its body (the last test)
            entries = max(1, head.hits - hits)
            found.append(InnerLoop(head.line, tuple(body), hits / entries, ops / hits, op_s))
    # an inner loop nested in another found one is part of it
    return [f for f in found if not any(
        g is not f and g.lines[0].ref.key == f.lines[0].ref.key and g.header < f.header <= g.lines[-1].line
        for g in found)]
