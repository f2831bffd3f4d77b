"""`paef scan | fix | profile`: the headless face over `api`."""

from __future__ import annotations

import argparse
import json
import os
import re
import sys
from typing import Iterable, Sequence

from . import api
from .model import AnalysisError, CellRef, Distributed, Finding, Report
from .safe_write import WriteError, replace_file, same_file
from .units import InputError, fixed_payload, load, write_output


def main(argv: Sequence[str] | None = None) -> int:
    parser = _parser()
    argv = list(sys.argv[1:] if argv is None else argv)
    script_args: list[str] = []
    if argv[:1] == ["profile"] and "--" in argv:  # `paef profile ... -- ARGS`: the script's own
        cut = argv.index("--")
        argv, script_args = argv[:cut], argv[cut + 1:]
    args = parser.parse_args(argv)
    if args.command == "profile":
        args.script_args = script_args
    try:
        return int(args.run(args))
    except (InputError, WriteError) as exc:
        print(f"paef: {terminal_safe(str(exc))}", file=sys.stderr)
        return 2
    except ValueError as exc:  # e.g. an unknown --rule
        print(f"paef: {terminal_safe(str(exc))}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("paef: interrupted", file=sys.stderr)
        return 130


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="paef", description="Find and fix PyTorch performance antipatterns.")
    sub = parser.add_subparsers(dest="command", required=True)

    scan = sub.add_parser("scan", help="static analysis of .py / .ipynb files")
    scan.add_argument("paths", nargs="+", metavar="PATH")
    scan.add_argument("--format", choices=("text", "json"), default="text")
    scan.add_argument("--rule", action="append", metavar="ID", help="only this rule (repeatable)")
    scan.set_defaults(run=_scan)

    fix = sub.add_parser("fix", help="apply every proved-safe rewrite")
    fix.add_argument("path", metavar="PATH")
    fix.add_argument("-o", "--output", metavar="OUT", help="write here (default: in place, keeping PATH.orig)")
    fix.add_argument("--rule", action="append", metavar="ID")
    fix.add_argument("--unsafe", action="store_true", help="also apply the rewrites that need review")
    fix.set_defaults(run=_fix)

    prof = sub.add_parser("profile", help="run and profile a script or notebook",
                          usage="paef profile PATH [options] [-- SCRIPT ARGS]")
    prof.add_argument("path", metavar="PATH")
    prof.add_argument("--report", metavar="OUT.html", help="write a self-contained HTML report")
    prof.add_argument("--json", metavar="OUT.json", help="write the report as paef/1 JSON")
    prof.add_argument("--engine", choices=("torch", "scalene"), default="torch")
    _add_launch_args(prof)
    prof.set_defaults(run=_profile)
    return parser


def _add_launch_args(parser: argparse.ArgumentParser) -> None:
    """torchrun's own options, passed through: a multi-rank run is launched by it."""
    group = parser.add_argument_group("data-parallel run (launched through torchrun)")
    group.add_argument("--nproc-per-node", "--nproc_per_node", type=int, metavar="N",
                       help="run the script on N ranks on this node, each profiled")
    group.add_argument("--nnodes", default="1", metavar="N|MIN:MAX")
    group.add_argument("--node-rank", "--node_rank", type=int, metavar="K")
    group.add_argument("--rdzv-endpoint", "--rdzv_endpoint", metavar="HOST:PORT",
                       help="rendezvous of a multi-node job (one node: a free local port)")
    group.add_argument("--rdzv-backend", "--rdzv_backend", metavar="NAME")
    group.add_argument("--rdzv-id", "--rdzv_id", metavar="ID")


def _launch(args: argparse.Namespace):  # noqa: ANN202 - distributed.launch.Launch or None
    if args.nproc_per_node is None:
        if args.nnodes != "1" or args.rdzv_endpoint or args.node_rank is not None:
            raise ValueError("launcher options need --nproc-per-node")
        return None
    if args.engine != "torch":
        raise ValueError("--nproc-per-node profiles with the torch engine only")
    from .distributed.launch import Launch

    return Launch(args.nproc_per_node, args.nnodes, args.node_rank, args.rdzv_endpoint, args.rdzv_backend, args.rdzv_id)


def _scan(args: argparse.Namespace) -> int:
    reports, unreadable = [], []
    for path in args.paths:
        try:
            reports.append(api.analyze_path(path, rules=args.rule))
        except InputError as exc:  # the other files are still reported
            print(f"paef: {terminal_safe(str(exc))}", file=sys.stderr)
            reason = str(exc).removeprefix(f"{path}: ")
            unreadable.append(AnalysisError(CellRef(path), None, reason))
    merged = Report(
        findings=_once_each(f for r in reports for f in r.findings),
        errors=tuple(unreadable) + tuple(e for r in reports for e in r.errors),
    )
    if args.format == "json":
        print(json.dumps(merged.to_json(full=False), indent=2))
    else:
        print(render_text(merged))
    if unreadable:
        return 2
    return 1 if merged.findings or merged.errors else 0


def _once_each(findings: Iterable[Finding]) -> tuple[Finding, ...]:
    """`paef scan main.py model.py`: a helper module named on the command line is also reached
    from main.py's imports; a finding in it is one finding, reported once (the first seen)."""
    seen: set[tuple[str, str, int | None, int]] = set()
    out = []
    for f in findings:
        key = (f.rule, os.path.normpath(f.ref.path or ""), f.ref.cell, f.line)
        if key not in seen:
            seen.add(key)
            out.append(f)
    return tuple(out)


def render_text(report: Report) -> str:
    lines = []
    for f in report.findings:
        where = _where(f.ref.path, f.ref.cell, f.line)
        tag = " [fixable]" if f.fixable else " [fix needs review]" if f.fix and f.fix.needs_review else ""
        lines.append(terminal_safe(f"{where}: {f.severity.value}: {f.rule}: {f.message}{tag}"))
    for e in report.errors:
        lines.append(terminal_safe(f"{_where(e.ref.path, e.ref.cell, e.line)}: error: {e.message}"))
    n = len(report.findings)
    lines.append(f"{n} finding{'s' if n != 1 else ''}, {len(report.errors)} unanalysable")
    return "\n".join(lines)


def render_ranks(dist: "Distributed") -> str:
    """The per-rank summary, one line a rank (the views render the same `Distributed`)."""
    from .ui.ranks import rank_rows

    lines = [terminal_safe(row) for row in rank_rows(dist)]
    return "\n".join(lines)


_SHOWN_ESCAPED = re.compile("[\x00-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]")


def terminal_safe(text: str) -> str:
    """`text` as one inert terminal line: control characters (which can retitle or clear a terminal)
    and Unicode bidi controls (which reorder what is shown: Trojan Source) are written as escapes."""
    return _SHOWN_ESCAPED.sub(lambda m: m.group().encode("unicode_escape").decode("ascii"), text)


def _where(path: str | None, cell: int | None, line: int | None) -> str:
    out = path or "<cell>"
    if cell is not None:
        out += f"[cell {cell}]"
    return f"{out}:{line}" if line is not None else out


def _fix(args: argparse.Namespace) -> int:
    loaded = load(args.path)
    rewrites = api.rewrite(loaded.units, rules=args.rule, unsafe=args.unsafe)
    new_sources = {r.unit.ref.cell: r.text for r in rewrites if r.applied}
    total = sum(len(r.applied) for r in rewrites)
    out = args.output or args.path
    if new_sources:
        backup = write_output(loaded, out, fixed_payload(loaded, new_sources))
        if backup:
            print(f"paef: the original is kept as {backup}", file=sys.stderr)
    elif args.output and not same_file(args.path, args.output):
        write_output(loaded, out, loaded.snapshot.data)
    left = api.analyze_rewritten(rewrites, rules=args.rule)
    print(f"paef: {_fix_summary(total, out, left)}", file=sys.stderr)
    for e in left.errors:
        print(terminal_safe(f"paef: {_where(e.ref.path, e.ref.cell, e.line)}: {e.message}"), file=sys.stderr)
    return 1 if left.errors else 0


def _fix_summary(applied: int, out: str, left: Report) -> str:
    """What was applied, what is offered but needs review, what is left as hints."""
    review = sum(1 for f in left.findings if f.fix is not None and f.fix.needs_review)
    safe = sum(1 for f in left.findings if f.fixable)  # collided with another fix
    hints = len(left.findings) - review - safe
    text = f"{applied} rewrite{'s' if applied != 1 else ''} applied to {out}"
    if review:
        text += f"; {review} need{'s' if review == 1 else ''} review (--unsafe applies {'it' if review == 1 else 'them'})"
    if safe:
        text += f"; {safe} not applied (collided with another rewrite)"
    return text + f"; {hints} hint{'s' if hints != 1 else ''} (a manual change)"


def _profile(args: argparse.Namespace) -> int:
    profile_path = getattr(api, "profile_path", None)
    if profile_path is None:
        raise InputError(f"{args.path}: profiling is not available in this build")
    launch = _launch(args)
    if launch is not None:
        report = api.profile_distributed(
            args.path, launch, args.script_args, echo=lambda line: print(line, end="", file=sys.stderr)
        )
    else:
        report = profile_path(args.path, engine=args.engine, script_args=args.script_args)
    if args.json:
        replace_file(args.json, json.dumps(report.to_json(), indent=1).encode("utf-8"))
    if args.report:
        from .ui.html_report import write_report

        write_report(report, args.report)
    print(render_text(report))
    if report.profile is not None and report.profile.distributed is not None:
        print(render_ranks(report.profile.distributed))
    failed = any("failed" in note for note in (report.profile.notes if report.profile else ()))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
