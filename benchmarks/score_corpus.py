"""Score PAEF on a labelled corpus of training programs: precision, recall, rewrite safety.

    python -m benchmarks.score_corpus [--json OUT] [--rule ID]... [--program NAME]... [--only GLOB]... [--unsafe]

The corpus (`benchmarks/corpus/`) holds programs written for this purpose in the style of
public PyTorch training code. Each program is a `.py` file, an `.ipynb` notebook, or a
directory (a project whose entry is `main.py`). Labels are trailing comments on the line where
a finding must start:

    x = y.cpu().tolist()  # paef: expect ping-pong; expect host-sync
    - expect RULE      a finding of RULE must start on this line (any severity)
    - expect-fix RULE  the same, and the finding's fix must be automatic (`Finding.fixable`):
                       scanned from the entry, or, in a module the entry imports, scanned alone
                       as `paef fix MODULE` does (fixing the entry rewrites the entry only)
    - refuse RULE      RULE may be reported here, but never with an automatic fix (either way)
    - ok RULE          debatable: a finding here counts neither way

Two conventions decide `expect` against `ok` where the same code was labelled both ways (label49;
the reasons in `benchmarks/results/label49.md`):

- host-sync in an evaluation loop: a per-batch read (`.item()`, `float(t)`, `.cpu()` of a metric)
  in a loop that evaluates (no backward in the step) is `ok` when the program also trains - the
  loop is a held-out pass once per epoch or after training, a small share of the run - unless a
  loop around it back-propagates in its own body (an RL rollout before the episode's update: part
  of the training step, `expect`). It is `expect` when the program only evaluates (no training
  loop in the file, its cells, or the local modules it reaches): evaluation is then the run.
- pageable-transfer on an unpinned `DataLoader`: `expect` when pinning buys overlap - the loader
  has (or may have: a non-literal count, a `**` dict) worker processes, or its batches are
  copied with `non_blocking=True`; `ok` for a single-process loader (`num_workers` absent or 0)
  whose batches are copied with a blocking `.to(device)`: pinning would run inline on the
  training thread and the copy would still block.

A finding matches a label when the label's line lies within [finding.line, finding.end_line]
of the same file/cell; a finding that matches no label of its rule is a false positive. A
first line `# corpus: runnable` (in the first cell of a notebook, in `main.py` of a project)
marks a program that runs on a CPU in a few seconds and prints deterministic results: those
are run before and after `paef fix` and their outputs compared.

It measures; it does not judge: the exit status is 0 whatever the scores.
"""

from __future__ import annotations

import argparse
import contextlib
import fnmatch
import inspect
import io
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import types
from collections import defaultdict
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Callable, Iterable, Iterator, Sequence

ROOT = Path(__file__).resolve().parents[1]
CORPUS = Path(__file__).resolve().parent / "corpus"
RUNNABLE = "# corpus: runnable"
LABEL = re.compile(r"#\s*paef:\s*(.+?)\s*$")
LABEL_ITEM = re.compile(r"^(expect-fix|expect|refuse|ok)\s+([a-z][a-z0-9-]*)$")
KINDS = ("expect", "expect-fix", "refuse", "ok")
RUN_TIMEOUT_S = 60


class LabelError(ValueError):
    """A label comment that does not follow the syntax above."""


@dataclass(frozen=True)
class Label:
    path: str  # real path of the file holding it
    cell: int | None  # notebook cell index (all cells), None for .py
    line: int  # 1-based, within the cell for notebooks
    kind: str
    rule: str

    def where(self, root: Path) -> str:
        rel = os.path.relpath(self.path, root)
        return f"{rel}{'' if self.cell is None else f'[cell {self.cell}]'}:{self.line}"


@dataclass
class Program:
    name: str  # path relative to the corpus, e.g. "gan_mnist.py" or "niser_project"
    path: Path  # the file or directory
    entry: Path  # the file the scorer analyses (main.py for a directory)
    runnable: bool
    labels: list[Label] = field(default_factory=list)


# --- labels ------------------------------------------------------------------------------


def parse_line_labels(line: str) -> list[tuple[str, str]]:
    """(kind, rule) pairs of one source line's `# paef:` comment; [] when it has none."""
    match = LABEL.search(line)
    if not match:
        return []
    items = [item.strip() for item in match.group(1).split(";") if item.strip()]
    if not items:
        raise LabelError(f"empty paef label: {line.strip()!r}")
    out = []
    for item in items:
        m = LABEL_ITEM.match(item)
        if not m:
            raise LabelError(f"malformed paef label {item!r} (expected one of {', '.join(KINDS)} then a rule id)")
        out.append((m.group(1), m.group(2)))
    return out


def text_labels(text: str, path: str, cell: int | None) -> list[Label]:
    labels = []
    for number, line in enumerate(text.splitlines(), 1):
        for kind, rule in parse_line_labels(line):
            labels.append(Label(path, cell, number, kind, rule))
    return labels


def file_texts(path: Path) -> list[tuple[int | None, str]]:
    """(cell index or None, text) of every code unit of a .py or .ipynb file."""
    if path.suffix == ".ipynb":
        nb = json.loads(path.read_text(encoding="utf-8"))
        return [
            (i, "".join(c["source"]) if isinstance(c["source"], list) else c["source"])
            for i, c in enumerate(nb["cells"])
            if c.get("cell_type") == "code"
        ]
    return [(None, path.read_text(encoding="utf-8"))]


def program_files(program: Program) -> list[Path]:
    if program.path.is_dir():
        return sorted(p for p in program.path.rglob("*") if p.suffix in (".py", ".ipynb") and "__pycache__" not in p.parts)
    return [program.path]


def _selected(name: str, stem: str, names: Sequence[str], only: Sequence[str]) -> bool:
    """Whether a program is scored: `names` match exactly (name or stem); `only` are globs, a
    pattern without wildcards being a prefix (`blind2_` = `blind2_*`). No filter = every program."""
    if names and (name in names or stem in names):
        return True
    patterns = [p if any(c in p for c in "*?[") else p + "*" for p in only]
    if any(fnmatch.fnmatchcase(name, p) for p in patterns):
        return True
    return not names and not only


def discover(corpus: Path = CORPUS, names: Sequence[str] = (), only: Sequence[str] = ()) -> list[Program]:
    programs = []
    for path in sorted(corpus.iterdir()):
        if path.name.startswith((".", "_")):
            continue
        if path.is_dir():
            entry = path / "main.py"
            if not entry.exists():
                continue
        elif path.suffix in (".py", ".ipynb"):
            entry = path
        else:
            continue
        name = path.name
        if not _selected(name, path.stem, names, only):
            continue
        first = file_texts(entry)
        runnable = bool(first) and first[0][1].lstrip().startswith(RUNNABLE)
        program = Program(name, path, entry, runnable)
        for file in program_files(program):
            for cell, text in file_texts(file):
                program.labels += text_labels(text, os.path.realpath(file), cell)
        programs.append(program)
    return programs


# --- static analysis and matching ---------------------------------------------------------


@dataclass
class Outcome:
    program: str
    seconds: float = 0.0
    findings: list[dict[str, Any]] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    # per label: matched findings (indexes into findings)
    label_hits: list[tuple[Label, list[int]]] = field(default_factory=list)
    # labels in a module the entry imports: whether `paef fix MODULE` (the file scanned on its
    # own) rewrites the site automatically; fixing the entry never rewrites another file
    fixed_alone: dict[Label, bool] = field(default_factory=dict)


def _finding_key(finding: Any) -> tuple[str, int | None]:
    return (os.path.realpath(finding.ref.path) if finding.ref.path else "", finding.ref.cell)


def analyze_program(program: Program, rules: Sequence[str] | None) -> tuple[Outcome, list[Any]]:
    from paef_jupyter import api

    start = time.perf_counter()
    # As `paef scan` does: local modules the program imports are followed.
    report = api.analyze_path(str(program.entry), rules=rules or None)
    seconds = time.perf_counter() - start
    outcome = Outcome(program.name, seconds)
    findings = list(report.findings)
    outcome.errors = [f"{e.ref.path}:{e.line}: {e.message}" for e in report.errors]
    for f in findings:
        outcome.findings.append(
            {
                "rule": f.rule,
                "path": os.path.relpath(_finding_key(f)[0], CORPUS) if f.ref.path else None,
                "cell": f.ref.cell,
                "line": f.line,
                "end_line": f.end_line,
                "severity": f.severity.value,
                "fixable": f.fixable,
                "review": bool(f.fix is not None and f.fix.needs_review),
                "message": f.message,
                "verdict": "fp",
            }
        )
    labels = [lb for lb in program.labels if not rules or lb.rule in rules]
    for label in labels:
        hits = [
            i
            for i, f in enumerate(findings)
            if f.rule == label.rule
            and _finding_key(f) == (label.path, label.cell)
            and (f.line <= label.line <= max(f.end_line, f.line) or label.line in f.part_lines)  # a site it names
        ]
        outcome.label_hits.append((label, hits))
    entry = os.path.realpath(program.entry)
    alone: dict[str, list[Any]] = {}
    for label in labels:
        if label.kind in ("expect-fix", "refuse") and label.path != entry:
            if label.path not in alone:
                alone[label.path] = list(api.analyze_path(label.path, rules=rules or None).findings)
            outcome.fixed_alone[label] = any(
                f.fixable and f.rule == label.rule and _finding_key(f) == (label.path, label.cell)
                and (f.line <= label.line <= max(f.end_line, f.line) or label.line in f.part_lines)
                for f in alone[label.path])
    order = {"expect-fix": 0, "expect": 0, "ok": 1, "refuse": 1}
    for label, hits in outcome.label_hits:
        for i in hits:
            verdict = "tp" if order[label.kind] == 0 else "debatable"
            current = outcome.findings[i]["verdict"]
            if current == "fp" or (current == "debatable" and verdict == "tp"):
                outcome.findings[i]["verdict"] = verdict
    return outcome, findings


@dataclass
class RuleScore:
    tp: int = 0  # findings that match an expect label
    fp: int = 0  # findings that match no label of their rule
    debatable: int = 0  # findings matching only ok / refuse labels
    expected: int = 0  # expect + expect-fix labels
    found: int = 0  # of those, matched by a finding
    fix_expected: int = 0
    fix_achieved: int = 0
    refusals: int = 0
    refusals_respected: int = 0

    def add(self, other: "RuleScore") -> None:
        for name in self.__dataclass_fields__:
            setattr(self, name, getattr(self, name) + getattr(other, name))

    @property
    def fn(self) -> int:
        return self.expected - self.found

    @property
    def precision(self) -> float | None:
        return self.tp / (self.tp + self.fp) if self.tp + self.fp else None

    @property
    def recall(self) -> float | None:
        return self.found / self.expected if self.expected else None


def score(outcomes: Iterable[tuple[Outcome, list[Any]]]) -> dict[str, RuleScore]:
    per_rule: dict[str, RuleScore] = defaultdict(RuleScore)
    for outcome, findings in outcomes:
        for f in outcome.findings:
            s = per_rule[f["rule"]]
            if f["verdict"] == "tp":
                s.tp += 1
            elif f["verdict"] == "fp":
                s.fp += 1
            else:
                s.debatable += 1
        for label, hits in outcome.label_hits:
            s = per_rule[label.rule]
            if label.kind in ("expect", "expect-fix"):
                s.expected += 1
                s.found += bool(hits)
            if label.kind == "expect-fix":
                s.fix_expected += 1
                s.fix_achieved += any(findings[i].fixable for i in hits) or outcome.fixed_alone.get(label, False)
            if label.kind == "refuse":
                s.refusals += 1
                s.refusals_respected += not (any(findings[i].fixable for i in hits) or outcome.fixed_alone.get(label, False))
    return dict(per_rule)


# --- running programs ---------------------------------------------------------------------


def execute(target: str, times: int = 1) -> list[str]:
    """Run a program `times` times in this process, each in a fresh namespace; return stdouts.

    Used in a child process (see `run_in_subprocess`): a directory runs its `main.py` with the
    directory first on sys.path and its modules forgotten between runs; a notebook runs its
    code cells in order in one namespace.
    """
    import runpy

    path = Path(target).resolve()
    outputs = []
    for _ in range(times):
        buffer = io.StringIO()
        base = path if path.is_dir() else path.parent
        entry = path / "main.py" if path.is_dir() else path
        saved_path, saved_argv, saved_cwd = list(sys.path), list(sys.argv), os.getcwd()
        before = set(sys.modules)
        sys.path.insert(0, str(base))
        sys.argv = [str(entry)]
        os.chdir(base)
        try:
            with contextlib.redirect_stdout(buffer), _exit_handlers_run_here():
                if entry.suffix == ".ipynb":
                    namespace: dict[str, Any] = {"__name__": "__main__", "display": _display}
                    for index, text in file_texts(entry):
                        exec(compile(runnable_cell(text), f"{entry.name}[cell {index}]", "exec"), namespace)
                else:
                    runpy.run_path(str(entry), run_name="__main__")
        finally:
            sys.path[:], sys.argv[:] = saved_path, saved_argv
            os.chdir(saved_cwd)
            for name in set(sys.modules) - before:
                module_file = getattr(sys.modules[name], "__file__", None) or ""
                if module_file.startswith(str(base)):
                    del sys.modules[name]
        outputs.append(buffer.getvalue())
    return outputs


def runnable_cell(text: str) -> str:
    """A notebook cell as the scorer runs it: IPython syntax (`%matplotlib inline`, `!pip install`,
    `obj?`, a `%%time` first line) is a no-op (`None` on the same line), a non-Python cell magic
    (`%%bash`) runs nothing. Why: notebooks as people write them have these lines; without a kernel
    they do nothing the checksum shows (a `%%time` cell's timing would only add noise)."""
    from paef_jupyter.source import _PLACEHOLDER_RE, mask

    masked = mask(text)
    if not masked.python:
        return ""
    return _PLACEHOLDER_RE.sub("None", masked.text)


def _display(*objects: Any, **_: Any) -> None:
    """IPython's `display` outside a kernel: each object's repr on its own line, as a cell shows it."""
    for obj in objects:
        print(repr(obj))


@contextlib.contextmanager
def _exit_handlers_run_here() -> Iterator[None]:
    """Run a program as `python PROGRAM` ends it: `sys.exit(0)` / `sys.exit()` is a normal end, and the
    `atexit` handlers it registered run at its end, inside the captured stdout, last registered first.

    Why: a handler that prints state (a running total, a step count) shows what a rewrite changed only
    if its output is compared; run at the child's own exit, it printed after the results and broke them
    (red team 43)."""
    import atexit

    handlers: list[tuple[Callable[..., Any], tuple[Any, ...], dict[str, Any]]] = []
    register, unregister = atexit.register, atexit.unregister

    def register_here(func: Callable[..., Any], *args: Any, **kwargs: Any) -> Callable[..., Any]:
        handlers.append((func, args, kwargs))
        return func

    def unregister_here(func: Callable[..., Any]) -> None:
        handlers[:] = [h for h in handlers if h[0] != func]

    atexit.register, atexit.unregister = register_here, unregister_here  # type: ignore[assignment]
    try:
        yield
    except SystemExit as exc:
        if exc.code not in (None, 0):
            raise
    finally:
        atexit.register, atexit.unregister = register, unregister  # type: ignore[assignment]
        for func, args, kwargs in reversed(handlers):
            func(*args, **kwargs)


def execute_many(targets: Sequence[str], times: int | Sequence[int] = 1) -> dict[str, dict[str, Any]]:
    """`execute` each target in turn in this process (`times` times, or `times[i]` for the
    i-th): one torch import for a whole batch.

    A program's error is its own result, not the batch's; torch's process-wide settings a
    program may change (grad mode, default dtype, threads, global module hooks) are put back
    before the next one.
    """
    results: dict[str, dict[str, Any]] = {}
    restore = _torch_settings_restorer()
    for target, n in zip(targets, _each(times, len(targets))):
        modules = dict(sys.modules)
        try:
            results[target] = {"ok": True, "outputs": execute(target, n)}
        except BaseException as exc:  # noqa: BLE001 - SystemExit from a script is its failure too
            results[target] = {"ok": False, "error": f"{type(exc).__name__}: {exc}".splitlines()[0]}
        restore()
        _restore_stand_in_modules(modules)
    return results


def _restore_stand_in_modules(before: dict[str, Any]) -> None:
    """Modules a program made up (`sys.modules["tqdm"] = types.ModuleType("tqdm")`: a stand-in for
    a package, no import spec) or replaced are taken back: the next program of the batch imports
    the real one (pub46's `tqdm(loader).set_description` after pub43's stand-in `tqdm`)."""
    for name, module in list(sys.modules.items()):
        if name in before:
            if before[name] is not module:
                sys.modules[name] = before[name]
        elif getattr(module, "__spec__", None) is None:
            del sys.modules[name]


def _each(times: int | Sequence[int], n: int) -> list[int]:
    return [times] * n if isinstance(times, int) else list(times)


def _torch_settings_restorer() -> Callable[[], None]:
    import torch

    from torch.nn.modules import module

    grad, dtype, threads = torch.is_grad_enabled(), torch.get_default_dtype(), torch.get_num_threads()
    deterministic = torch.are_deterministic_algorithms_enabled()
    device, anomaly = torch.get_default_device(), (torch.is_anomaly_enabled(), torch.is_anomaly_check_nan_enabled())
    # Print options and NumPy's error modes change what the next programs print (red team 46's
    # `set_printoptions(precision=12)` made a later program's original, run in the batch, print
    # 12 digits where its rewritten run, alone, printed 4: a harm of the scorer's, not the rewrite's).
    torch_print = dict(vars(torch._tensor_str.PRINT_OPTS))
    numpy_print, numpy_err = _numpy_settings()
    # Hooks a program registers for every module (`register_module_forward_pre_hook`) would
    # run in the next programs of the batch (but not in their rewritten runs, each alone).
    hooks = {name: dict(value) if isinstance(value, dict) else value
             for name, value in vars(module).items() if name.startswith("_global_")}
    # A program may patch torch's own functions (`vars(torch)["stack"] = f`, `torch.Tensor.double
    # = g`, `F.__dict__.update(relu=h)`): the next programs would run the patch.
    spaces = (torch, torch.nn, torch.nn.functional, torch.Tensor)
    namespaces = [(space, dict(vars(space))) for space in spaces]

    def restore() -> None:
        torch.set_grad_enabled(grad)
        torch.set_default_dtype(dtype)
        torch.set_num_threads(threads)
        torch.use_deterministic_algorithms(deterministic)
        if torch.get_default_device() != device:
            torch.set_default_device(None if device.type == "cpu" else device)
        torch.set_anomaly_enabled(*anomaly)
        vars(torch._tensor_str.PRINT_OPTS).update(torch_print)
        if numpy_print is not None:
            import numpy

            numpy.set_printoptions(**numpy_print)
            numpy.seterr(**numpy_err)
        for name, value in hooks.items():
            if isinstance(value, dict):
                getattr(module, name).clear()
                getattr(module, name).update(value)
            else:
                setattr(module, name, value)
        for space, before in namespaces:
            _restore_namespace(space, before)

    return restore


def _numpy_settings() -> tuple[dict[str, Any] | None, dict[str, Any] | None]:
    """NumPy's print options and error modes, or (None, None) where NumPy is absent."""
    try:
        import numpy
    except ImportError:
        return None, None
    return numpy.get_printoptions(), numpy.geterr()


def _restore_namespace(space: Any, before: dict[str, Any]) -> None:
    """Names changed since `before` get their old values; names added are removed, except
    submodules imported meanwhile (`torch.fx`), which the import system set and would not set again."""
    now = dict(vars(space))
    for name, value in before.items():
        if now.get(name, _MISSING) is not value:
            setattr(space, name, value)
    for name, value in now.items():
        if name not in before and not isinstance(value, types.ModuleType):
            delattr(space, name)


_MISSING = object()

CHILD = (
    "import json, sys; sys.path.insert(0, {root!r}); "
    "from benchmarks.score_corpus import execute_many; "
    "print('\\x00PAEF-CORPUS' + json.dumps(execute_many({targets!r}, {times})))"
)


@dataclass
class Run:
    ok: bool
    outputs: list[str]
    error: str = ""
    seconds: float = 0.0


def run_in_subprocess(target: Path, times: int = 1, timeout: float = RUN_TIMEOUT_S) -> Run:
    return run_batch_in_subprocess([target], times, timeout)[0]


def run_batch_in_subprocess(targets: Sequence[Path], times: int | Sequence[int] = 1,
                            timeout: float = RUN_TIMEOUT_S) -> list[Run]:
    """Run several programs in one child process (see `execute_many`), `timeout` seconds each.

    A batch that dies or runs out of time is run again one program per process, so every
    failure is reported against the program that caused it.
    """
    env = dict(os.environ, OMP_NUM_THREADS="1", MKL_NUM_THREADS="1", PYTHONHASHSEED="0", CUDA_VISIBLE_DEVICES="")
    names = [str(t) for t in targets]
    start = time.perf_counter()
    try:
        proc = subprocess.run(
            [sys.executable, "-c", CHILD.format(root=str(ROOT), targets=names, times=_each(times, len(names)))],
            capture_output=True,
            text=True,
            timeout=timeout * len(targets),
            env=env,
            cwd=str(ROOT),
        )
        error = ""
    except subprocess.TimeoutExpired:
        proc, error = None, f"timed out after {timeout:.0f} s"
    seconds = (time.perf_counter() - start) / len(targets)
    marker = -1 if proc is None else proc.stdout.rfind("\x00PAEF-CORPUS")
    if proc is not None and proc.returncode == 0 and marker >= 0:
        results = json.loads(proc.stdout[marker + len("\x00PAEF-CORPUS") :])
        return [
            Run(True, r["outputs"], "", seconds) if r["ok"] else Run(False, [], r["error"], seconds)
            for r in (results[name] for name in names)
        ]
    if len(targets) > 1:
        return [run_in_subprocess(t, n, timeout) for t, n in zip(targets, _each(times, len(targets)))]
    if proc is not None:
        tail = (proc.stderr or proc.stdout).strip().splitlines()[-1:] or ["no output"]
        error = f"exit {proc.returncode}: {tail[0]}"
    return [Run(False, [], error, seconds)]


def run_all(targets: Sequence[Path], times: int | Sequence[int] = 1, timeout: float = RUN_TIMEOUT_S,
            batch: int = 40, together: int = 1) -> list[Run]:
    """Run every target (`times` times, or `times[i]` for the i-th), about `batch` programs per
    child process (each child pays a torch import, ~2 s of CPU), two processes at a time. A
    child takes every n-th group of
    `together` consecutive targets (a program and its rewrite run side by side), so the long
    programs that sort together (one author's set) are spread over the children."""
    if not targets:  # (`--only` naming no runnable program)
        return []
    groups = [list(range(i, min(i + together, len(targets)))) for i in range(0, len(targets), together)]
    n = max(1, -(-len(targets) // batch))
    chunks = [[i for group in groups[k::n] for i in group] for k in range(n)]
    each = _each(times, len(targets))
    runs: dict[int, Run] = {}
    with ThreadPoolExecutor(max_workers=2) as pool:
        done = pool.map(lambda chunk: run_batch_in_subprocess([targets[i] for i in chunk], [each[i] for i in chunk],
                                                              timeout), chunks)
        for chunk, chunk_runs in zip(chunks, done):
            runs.update(zip(chunk, chunk_runs))
    return [runs[i] for i in range(len(targets))]


# --- rewrites -----------------------------------------------------------------------------


@dataclass
class Harm:
    program: str
    rule: str
    where: str
    why: str


def _rewrite(units: list[Any], rules: Sequence[str] | None, unsafe: bool) -> tuple[list[Any], str]:
    """`api.rewrite`, with review fixes too when `unsafe` (through `unsafe=` when the API has it)."""
    from paef_jupyter import api

    if not unsafe:
        return api.rewrite(units, rules=rules or None), ""
    if "unsafe" in inspect.signature(api.rewrite).parameters:
        return api.rewrite(units, rules=rules or None, unsafe=True), ""
    # No `unsafe=` yet: promote review fixes to automatic ones and apply them the same way.
    from paef_jupyter.fix import apply_findings

    texts = [u.text for u in units]
    applied: list[list[Any]] = [[] for _ in units]
    for _ in range(5):
        current = [replace(u, text=t) for u, t in zip(units, texts)]
        report = api.analyze(current, rules=rules or None)
        changed = False
        for i, unit in enumerate(current):
            mine = [
                replace(f, fix=replace(f.fix, review="")) if f.fix is not None and f.fix.needs_review else f
                for f in report.top(len(report.findings))
                if f.ref.key == unit.ref.key
            ]
            new, done, _ = apply_findings(unit.text, mine)
            if done:
                texts[i], changed = new, True
                applied[i].extend(done)
        if not changed:
            break
    return [api.Rewrite(u, t, tuple(a)) for u, t, a in zip(units, texts, applied)], "review fixes promoted by the scorer (api.rewrite has no unsafe=)"


def _compiles(text: str, cell: bool) -> str:
    """'' when `text` compiles (IPython syntax masked in a notebook cell), else the error."""
    if cell:
        from paef_jupyter.source import mask

        text = mask(text).text
    try:
        compile(text, "<rewritten>", "exec")
    except (SyntaxError, ValueError) as exc:
        return f"{type(exc).__name__}: {exc}"
    return ""


def write_variant(program: Program, new_texts: dict[tuple[str, int | None], str], where: Path) -> Path:
    """A copy of the program under `where` with some units replaced; returns the copy's path."""
    where.mkdir(parents=True, exist_ok=True)
    target = where / program.path.name
    if program.path.is_dir():
        shutil.copytree(program.path, target, ignore=shutil.ignore_patterns("__pycache__"))
    else:
        shutil.copy2(program.path, target)
    for (path, cell), text in new_texts.items():
        rel = Path(path).relative_to(program.path.resolve()) if program.path.is_dir() else Path(program.path.name)
        file = target / rel if program.path.is_dir() else target
        if cell is None:
            file.write_text(text, encoding="utf-8")
        else:
            nb = json.loads(file.read_text(encoding="utf-8"))
            nb["cells"][cell]["source"] = text
            file.write_text(json.dumps(nb, indent=1), encoding="utf-8")
    return target


@dataclass
class RewriteResult:
    program: str
    applied: list[tuple[str, str]] = field(default_factory=list)  # (rule, where)
    harms: list[Harm] = field(default_factory=list)
    note: str = ""
    before_failed: str = ""


def _applied_by_fix(finding: Any, unsafe: bool) -> bool:
    return finding.fixable or (unsafe and finding.fix is not None and finding.fix.needs_review)


def _first_round(file_units: list[Any], rules: Sequence[str] | None) -> list[Any]:
    """The findings `paef fix FILE` applies first, from the file analysed on its own."""
    from paef_jupyter import api

    report = api.analyze(file_units, rules=rules or None)
    return list(report.top(len(report.findings)))


def check_rewrites(
    program: Program, findings: list[Any], rules: Sequence[str] | None, unsafe: bool, tmp: Path, before: Run | None
) -> RewriteResult:
    from paef_jupyter.fix import apply_findings
    from paef_jupyter.units import read_units

    result = RewriteResult(program.name)
    # A refusal label that the analysis answers with an automatic fix is harmful whether or
    # not the fix won its collisions: `paef fix` would offer it as proved-safe.
    for label in program.labels:
        if label.kind != "refuse" or (rules and label.rule not in rules):
            continue
        for f in findings:
            if (
                f.rule == label.rule
                and _finding_key(f) == (label.path, label.cell)
                and f.line <= label.line <= max(f.end_line, f.line)
                and f.fixable
            ):
                result.harms.append(Harm(program.name, label.rule, label.where(CORPUS), "refused rewrite offered as automatic"))
                break
    # Every file of a project, each rewritten on its own as `paef fix FILE` does: a module's
    # automatic fixes are run and compared too, not only the entry's.
    units, rewrites, modules = [], [], []
    for file in program_files(program) if program.path.is_dir() else [program.entry]:
        file_units = read_units(str(file))
        file_rewrites, result.note = _rewrite(file_units, rules, unsafe)
        units += file_units
        rewrites += file_rewrites
        if file != program.entry:
            modules.append(file_units)
    new_texts: dict[tuple[str, int | None], str] = {}
    for rw in rewrites:
        key = (os.path.realpath(rw.unit.ref.path), rw.unit.ref.cell)
        for f in rw.applied:
            where = Label(key[0], key[1], f.line, "", f.rule).where(CORPUS)
            result.applied.append((f.rule, where))
        if rw.text != rw.unit.text:
            new_texts[key] = rw.text
            problem = _compiles(rw.text, rw.unit.ref.cell is not None)
            if problem:
                for f in rw.applied:
                    where = Label(key[0], key[1], f.line, "", f.rule).where(CORPUS)
                    result.harms.append(Harm(program.name, f.rule, where, f"output does not compile: {problem}"))
    if not new_texts or not program.runnable:
        return result
    if before is None or not before.ok:
        result.before_failed = before.error if before else "not run"
        return result
    variant = write_variant(program, new_texts, tmp / "all")
    after = run_in_subprocess(variant)
    if after.ok and after.outputs == before.outputs:
        return result
    why = "changed output" if after.ok else f"rewritten program fails ({after.error})"
    # Find the culprits among the first round's fixes, each applied alone to the original.
    candidates = [f for f in findings if _applied_by_fix(f, unsafe)]
    # A project module's fixes come from fixing that module alone (`paef fix FILE`): the entry's
    # findings hold them only for review, so the module's own first-round findings are tried.
    seen = {(f.rule, _finding_key(f), f.line) for f in candidates}
    for file_units in modules:
        for f in _first_round(file_units, rules):
            if _applied_by_fix(f, unsafe) and (f.rule, _finding_key(f), f.line) not in seen:
                seen.add((f.rule, _finding_key(f), f.line))
                candidates.append(f)
    culprits = []
    for i, f in enumerate(candidates):
        key = _finding_key(f)
        unit = next((u for u in units if (os.path.realpath(u.ref.path), u.ref.cell) == key), None)
        if unit is None:
            continue
        alone = f if f.fixable else replace(f, fix=replace(f.fix, review=""))
        text, done, _ = apply_findings(unit.text, [alone])
        if not done:
            continue
        one = run_in_subprocess(write_variant(program, {key: text}, tmp / f"one{i}"))
        if not one.ok or one.outputs != before.outputs:
            alone_why = "changed output" if one.ok else f"rewritten program fails ({one.error})"
            culprits.append(Harm(program.name, f.rule, Label(key[0], key[1], f.line, "", f.rule).where(CORPUS), alone_why))
    if not culprits:
        rules_applied = ", ".join(sorted({r for r, _ in result.applied}))
        culprits = [Harm(program.name, rules_applied, program.name, f"{why} (only the fixes together)")]
    result.harms += culprits
    return result


# --- report -------------------------------------------------------------------------------


def _pct(value: float | None) -> str:
    return "—" if value is None else f"{value:.2f}"


def rule_rows(per_rule: dict[str, RuleScore]) -> tuple[list[tuple[Any, ...]], RuleScore]:
    total = RuleScore()
    rows = []
    for rule in sorted(per_rule):
        s = per_rule[rule]
        total.add(s)
        rows.append(_row(rule, s))
    return rows, total


COLUMNS = (
    "rule",
    "labels expected",
    "TP",
    "FP",
    "FN",
    "debatable",
    "precision",
    "recall",
    "expect-fix achieved",
    "refusals respected",
)


def _row(name: str, s: RuleScore) -> tuple[Any, ...]:
    return (
        name,
        s.expected,
        s.tp,
        s.fp,
        s.fn,
        s.debatable,
        _pct(s.precision),
        _pct(s.recall),
        f"{s.fix_achieved}/{s.fix_expected}",
        f"{s.refusals_respected}/{s.refusals}",
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--json", metavar="OUT", help="write every finding, label and rewrite result here")
    parser.add_argument("--rule", action="append", default=[], metavar="ID", help="score this rule only (repeatable)")
    parser.add_argument("--program", action="append", default=[], metavar="NAME", help="score this program only (repeatable)")
    parser.add_argument(
        "--only", action="append", default=[], metavar="GLOB", help="score programs whose name matches (a prefix or a glob; repeatable)"
    )
    parser.add_argument("--unsafe", action="store_true", help="apply review fixes too (paef fix --unsafe)")
    parser.add_argument("--no-rewrite", action="store_true", help="skip the rewrite-safety part")
    parser.add_argument("--corpus", default=str(CORPUS), help=argparse.SUPPRESS)
    args = parser.parse_args(argv)

    from paef_jupyter.static.rules import RULES

    unknown = sorted(set(args.rule) - set(RULES))
    if unknown:
        parser.error(f"unknown rule id(s): {', '.join(unknown)}")
    programs = discover(Path(args.corpus), args.program, args.only)
    if not programs:
        parser.error("no program matched")

    # Warm up (imports, jedi's first inference) so per-program times are the warm times.
    from paef_jupyter import api
    from paef_jupyter.model import CellRef, SourceUnit
    from paef_jupyter.static.types import JediOracle

    # The rewrite check analyses each program again (rewritten, re-checked, with --unsafe):
    # the same source asks jedi the same questions. Each program's timed first analysis is
    # its own source's and not helped.
    JediOracle.share_answers()
    t0 = time.perf_counter()
    api.analyze([SourceUnit(CellRef("warmup.py"), "import torch\nx = torch.zeros(3)\nfor i in range(2):\n    y = x.sum().item()\n")])
    cold = time.perf_counter() - t0

    analysed = []
    for program in programs:
        try:
            analysed.append(analyze_program(program, args.rule))
        except Exception as exc:  # noqa: BLE001 - a crash is a measurement too
            outcome = Outcome(program.name, errors=[f"analysis crashed: {type(exc).__name__}: {exc}"])
            outcome.label_hits = [(lb, []) for lb in program.labels if not args.rule or lb.rule in args.rule]
            analysed.append((outcome, []))
    per_rule = score(analysed)
    rows, total = rule_rows(per_rule)

    print(f"corpus: {len(programs)} programs ({sum(p.runnable for p in programs)} runnable), {CORPUS}")
    header = f"{'rule':22} {'exp':>4} {'TP':>4} {'FP':>4} {'FN':>4} {'deb':>4} {'prec':>5} {'recall':>6} {'fix':>7} {'refuse':>7}"
    print(header)
    for row in [*rows, _row("overall", total)]:
        print(f"{row[0]:22} {row[1]:>4} {row[2]:>4} {row[3]:>4} {row[4]:>4} {row[5]:>4} {row[6]:>5} {row[7]:>6} {row[8]:>7} {row[9]:>7}")
    times = sorted((o.seconds, o.program) for o, _ in analysed)
    secs = [t for t, _ in times]
    print(
        f"\nstatic analysis: cold start {cold:.2f} s; per program warm median {statistics.median(secs):.3f} s, "
        f"max {secs[-1]:.3f} s ({times[-1][1]}), total {sum(secs):.1f} s"
    )
    for outcome, _ in analysed:
        for error in outcome.errors:
            print(f"  error in {outcome.program}: {error}")

    print("\nfalse negatives (expected, not found):")
    for outcome, _ in analysed:
        for label, hits in outcome.label_hits:
            if label.kind in ("expect", "expect-fix") and not hits:
                print(f"  {label.rule:22} {label.where(Path(args.corpus))}")
    print("false positives (found, not labelled):")
    for outcome, _ in analysed:
        for f in outcome.findings:
            if f["verdict"] == "fp":
                cell = "" if f["cell"] is None else f"[cell {f['cell']}]"
                print(f"  {f['rule']:22} {f['path']}{cell}:{f['line']}  {f['message'][:90]}")

    rewrites: list[RewriteResult] = []
    if not args.no_rewrite:
        with tempfile.TemporaryDirectory(prefix="paef-corpus-") as tmp:
            runnable = [p for p in programs if p.runnable]
            befores = dict(zip([p.name for p in runnable], run_all([p.path for p in runnable])))
            for i, (program, (outcome, findings)) in enumerate(zip(programs, analysed)):
                where = Path(tmp) / str(i)
                where.mkdir()
                try:
                    rewrites.append(check_rewrites(program, findings, args.rule, args.unsafe, where, befores.get(program.name)))
                except Exception as exc:  # noqa: BLE001
                    r = RewriteResult(program.name)
                    r.harms.append(Harm(program.name, "?", program.name, f"rewrite crashed: {type(exc).__name__}: {exc}"))
                    rewrites.append(r)
        broken = [(name, run.error) for name, run in befores.items() if not run.ok]
        n_rewrites = sum(len(r.applied) for r in rewrites)
        harms = [h for r in rewrites for h in r.harms]
        print(f"\nREWRITE SAFETY{' (--unsafe: review fixes applied too)' if args.unsafe else ''}:")
        print(f"  {n_rewrites} rewrites applied in {sum(bool(r.applied) for r in rewrites)} programs; harmful: {len(harms)}")
        for h in harms:
            print(f"  HARMFUL {h.rule:22} {h.where}  {h.why}")
        for name, error in broken:
            print(f"  corpus program does not run as written: {name}: {error}")
        notes = sorted({r.note for r in rewrites if r.note})
        for note in notes:
            print(f"  note: {note}")
    else:
        harms, n_rewrites = [], 0
    p, r = total.precision, total.recall
    print(
        f"\ncorpus: precision {_pct(p)} recall {_pct(r)} harmful {len(harms)} of {n_rewrites} rewrites"
    )

    if args.json:
        payload = {
            "programs": [
                {
                    "name": o.program,
                    "seconds": o.seconds,
                    "errors": o.errors,
                    "findings": o.findings,
                    "labels": [
                        {"where": lb.where(Path(args.corpus)), "kind": lb.kind, "rule": lb.rule, "matched": bool(h)}
                        for lb, h in o.label_hits
                    ],
                }
                for o, _ in analysed
            ],
            "rules": {rule: {**vars(s), "precision": s.precision, "recall": s.recall} for rule, s in per_rule.items()},
            "overall": {**vars(total), "precision": p, "recall": r},
            "rewrites": [
                {"program": rw.program, "applied": rw.applied, "harmful": [vars(h) for h in rw.harms], "before_failed": rw.before_failed}
                for rw in rewrites
            ],
            "harmful": len(harms),
            "rewrites_applied": n_rewrites,
            "static_seconds": {"cold": cold, "median": statistics.median(secs), "max": secs[-1], "total": sum(secs)},
        }
        Path(args.json).write_text(json.dumps(payload, indent=1) + "\n")
    if not args.rule and not args.program and not args.only and Path(args.corpus) == CORPUS and not args.no_rewrite:
        _write_table(rows, total, len(programs), harms, n_rewrites, args.unsafe, secs, cold)
    return 0


def _write_table(rows, total, n_programs, harms, n_rewrites, unsafe, secs, cold) -> None:
    from benchmarks.tables import Table, command_line, machine, write

    notes = (
        "The corpus (`benchmarks/corpus/`) was written for this by the team: clean programs with near-misses, "
        "antipatterns reached directly and through helpers / other modules / `Dataset.__getitem__` / `collate_fn` / "
        "`.cuda()`, multi-module projects, notebooks, and sites where a rewrite must be refused. The rules were "
        "improved while it was being written, partly on its misses: read it as a regression measure, not as "
        "held-out evidence.",
        f"{n_programs} programs; precision = TP / (TP + FP) over findings, recall = expected labels found / expected labels; "
        "debatable = findings on `ok`/`refuse` labels, counted neither way.",
        f"Rewrite safety{' (--unsafe)' if unsafe else ''}: {len(harms)} harmful of {n_rewrites} rewrites applied "
        "(a refused site offered an automatic fix, an output that does not compile, or a runnable program whose output changed).",
        *[f"harmful: {h.rule} at {h.where}: {h.why}" for h in harms],
        f"Static analysis per program (warm): median {statistics.median(secs):.3f} s, max {max(secs):.3f} s; cold start {cold:.2f} s.",
    )
    table = Table(
        name="corpus" + ("_unsafe" if unsafe else ""),
        title="Labelled corpus: precision, recall, rewrite safety" + (" (--unsafe)" if unsafe else ""),
        columns=COLUMNS,
        rows=tuple(rows) + (_row("overall", total),),
        notes=notes,
        machine=machine(),
        command=command_line(),
    )
    with contextlib.redirect_stdout(io.StringIO()):
        write(table)


if __name__ == "__main__":
    raise SystemExit(main())
