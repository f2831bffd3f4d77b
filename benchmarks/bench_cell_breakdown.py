"""Where a warm `%%paef` cell's extra wait goes, in a real kernel: step by step.

One kernel (jupyter_client), the demo cell and its plain run interleaved; inside the kernel each
step of the magic is timed by wrapping it (wall time, nothing changed in what it does): the
profiler's start and stop, reading the cell for its window, the cell's code itself, the static
analysis (cached when the text and namespace are the same), building the profile from the
trace, correlating, drawing the report (static copy, live view, their display), and what is
left around them. The client counts the messages and bytes the kernel sends for the cell
(display outputs, widget `comm_open` / `comm_msg`).

    .venv/bin/python -m benchmarks.bench_cell_breakdown [--repeats 7] [--only ping_pong] [--cpu] [--no-profile]

`--cpu`: each step timed as the CPU time of the kernel's main thread (`time.thread_time`), which
other processes on a shared box do not inflate, instead of wall time. `--no-profile`: the cells
run as `%%paef --no-profile` (analysis and report only), written to a table of its own.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time

from benchmarks.bench_kernel_cells import Kernel, settle, workloads
from benchmarks.tables import Table, command_line, machine, write

# Set up in the kernel: accumulate the wall time of each step per cell (wrappers only).
TIMERS = r"""
import time as _bd_time, functools as _bd_ft, torch as _bd_torch
import paef_jupyter.api, paef_jupyter.cell_cache, paef_jupyter.dynamic.build, paef_jupyter.correlate
import paef_jupyter.ui, paef_jupyter.ui.widget, paef_jupyter.ui.static_view, paef_jupyter.ui.flame, paef_jupyter.magic
import paef_jupyter.dynamic.collector, paef_jupyter.dynamic.code_files
_bd = {}
_bd_clock = _bd_time.{clock}
def _bd_wrap(owner, attr, name):
    inner = getattr(owner, attr)
    @_bd_ft.wraps(inner)
    def timed(*a, **k):
        t0 = _bd_clock()
        try:
            return inner(*a, **k)
        finally:
            _bd[name] = _bd.get(name, 0.0) + _bd_clock() - t0
    setattr(owner, attr, timed)
_bd_wrap(_bd_torch.profiler.profile, "start", "profiler start")
_bd_wrap(_bd_torch.profiler.profile, "stop", "profiler stop")
_bd_wrap(paef_jupyter.cell_cache, "cached_loop", "window: read the cell")
_bd_wrap(paef_jupyter.magic.CellCode, "build", "compile the cell")
_bd_wrap(paef_jupyter.ui, "placeholder", "placeholder shown")
_bd_wrap(paef_jupyter.dynamic.code_files, "earlier_cells", "earlier cells' files")
_bd_wrap(paef_jupyter.dynamic.collector, "_read", "read the trace")
_bd_wrap(paef_jupyter.api, "analyze_cell", "static analysis")
_bd_wrap(paef_jupyter.cell_cache, "namespace_fingerprint", "static analysis: namespace fingerprint")
_bd_wrap(paef_jupyter.dynamic.build, "build_profile", "profile from the trace")
_bd_wrap(paef_jupyter.correlate, "correlate", "correlate")
_bd_wrap(paef_jupyter.magic.CellCode, "run", "the cell's code (profiled)")
_bd_wrap(paef_jupyter.ui.flame, "layout", "draw: flame layout")
_bd_wrap(paef_jupyter.ui.widget, "static_html", "draw: static report html")
_bd_wrap(paef_jupyter.ui.static_view, "static_html", "draw: static report html")
_bd_wrap(paef_jupyter.ui.widget.ReportView, "__init__", "draw: build the view")
_bd_wrap(paef_jupyter.ui.widget.ReportView, "display", "draw: display the view")
_bd_wrap(paef_jupyter.ui, "show_report", "draw: all")
import paef_jupyter.ui.live_report, jupyter_client.session
_bd_wrap(paef_jupyter.ui.widget, "rendered", "draw: · pieces (cards, sources, line table)")
_bd_wrap(paef_jupyter.ui.flame, "figure_json", "draw: · flame figure JSON")
_bd_wrap(paef_jupyter.ui.flame, "svg", "draw: · flame SVG (static copy)")
_bd_wrap(paef_jupyter.ui.widget.ReportView, "_head_html", "draw: · head (summary, ranks)")
_bd_wrap(paef_jupyter.ui.widget, "LiveReport", "draw: · LiveReport widget made (its comm_open)")
import paef_jupyter.dynamic.line_tracer, paef_jupyter.dynamic.sync_monitor
_bd_wrap(paef_jupyter.dynamic.collector, "per_op_s", "set-up: profiler's cost per op, timed (twice)")
_bd_wrap(paef_jupyter.dynamic.line_tracer.LineTracer, "__enter__", "set-up: line tracer on")
_bd_wrap(paef_jupyter.dynamic.line_tracer.LineTracer, "__exit__", "set-up: line tracer off")
_bd_wrap(paef_jupyter.dynamic.sync_monitor.SyncMonitor, "start", "set-up: sync monitor on")
_bd_wrap(paef_jupyter.dynamic.sync_monitor.SyncMonitor, "stop", "set-up: sync monitor off")
_bd_wrap(paef_jupyter.dynamic.collector, "tell", "set-up: progress notes")
_bd_wrap(paef_jupyter.api, "_stamp", "set-up: stamping the report")
_bd_wrap(jupyter_client.session.Session, "send", "messages: Session.send, every message of the cell (any thread)")
_bd_wrap(paef_jupyter.magic.PaefMagics, "_cell", "magic: all")
"""
RESET = "_bd.clear()"
READ = "print(__import__('json').dumps(_bd))"
# Steps nested in "draw: all"; "draw: build the view" holds the static copy's html when it is
# displayed first (static_first), so the rest of the drawing is what neither names.
NESTED = ("draw: flame layout", "draw: static report html", "draw: build the view", "draw: display the view")


def traffic(kernel: Kernel, code: str) -> tuple[float, dict[str, list[int]]]:
    """(seconds until the reply, {msg_type: [count, bytes]} of iopub messages for the cell)."""
    counts: dict[str, list[int]] = {}

    def hook(msg: dict) -> None:
        kind = msg["msg_type"]
        size = len(json.dumps(msg["content"])) + sum(len(b) for b in msg.get("buffers") or ())
        entry = counts.setdefault(kind, [0, 0])
        entry[0] += 1
        entry[1] += size

    t0 = time.perf_counter()
    reply = kernel.kc.execute_interactive(code, timeout=300, output_hook=hook)
    elapsed = time.perf_counter() - t0
    if reply["content"]["status"] != "ok":
        raise RuntimeError(f"cell failed: {reply['content'].get('ename')}")
    return elapsed, counts


def measure(name: str, repeats: int, clock: str = "perf_counter", flags: str = "") -> dict:
    setup, body = workloads()[name]
    kernel = Kernel()
    try:
        kernel.must(setup)
        kernel.must("%load_ext paef_jupyter")
        kernel.must(TIMERS.replace("{clock}", clock))
        settle(kernel)
        cells = {"plain": body, "%%paef": f"%%paef{flags}\n" + body}
        for code in cells.values():  # untimed round
            kernel.must(code)
        out: dict = {"plain": [], "%%paef": [], "plain_cpu": [], "%%paef_cpu": [], "steps": [], "traffic": []}
        for _ in range(repeats):
            for k, code in cells.items():
                kernel.must(RESET)
                cpu = kernel.cpu_s()
                elapsed, counts = traffic(kernel, code)
                out[f"{k}_cpu"].append(kernel.cpu_s() - cpu)
                out[k].append(elapsed)
                if k == "%%paef":
                    out["steps"].append(json.loads(kernel.output(READ)))
                    out["traffic"].append(counts)
        return out
    finally:
        kernel.close()


def rows_of(name: str, got: dict, cpu: bool = False) -> list[tuple]:
    med = lambda values: statistics.median(values) * 1e3  # noqa: E731
    steps = got["steps"]
    names = list(dict.fromkeys(k for s in steps for k in s))

    def step(k: str) -> list[float]:
        return [s.get(k, 0.0) for s in steps]

    plain, paef = med(got["plain"]), med(got["%%paef"])
    plain_cpu, paef_cpu = med(got["plain_cpu"]), med(got["%%paef_cpu"])
    rows = [(name, "plain run (client's wait)", plain), (name, "%%paef (client's wait)", paef),
            (name, "extra wait", paef - plain), (name, "plain run (kernel CPU time, all threads)", plain_cpu),
            (name, "%%paef (kernel CPU time, all threads)", paef_cpu), (name, "extra kernel CPU time", paef_cpu - plain_cpu)]
    rows += [(name, k, med(step(k))) for k in names if k not in ("magic: all",)]
    drawn = [s.get("draw: all", 0.0) - sum(s.get(k, 0.0) for k in NESTED if k != "draw: static report html")
             for s in steps]
    rows.append((name, "draw: the rest (placeholder, closing the last view)", med(drawn)))
    around = [s.get("magic: all", 0.0) - sum(s.get(k, 0.0) for k in names if not k.startswith(("draw: ", "magic", "messages", "set-up")) and
                                               k not in ("profiler start", "profiler stop"))
              - s.get("draw: all", 0.0) for s in steps]
    rows.append((name, "magic: the rest (arguments, progress note after the run, profiler set-up, stamping)",
                 med(around)))
    if not cpu:  # the client's wait less the magic's: only with both in wall time
        rows.append((name, "outside the magic (kernel, IPython, client)",
                     med([p - s.get("magic: all", 0.0) for p, s in zip(got["%%paef"], steps)])))
    kinds = sorted({k for t in got["traffic"] for k in t})
    for kind in kinds:
        n = statistics.median(t.get(kind, [0, 0])[0] for t in got["traffic"])
        size = statistics.median(t.get(kind, [0, 0])[1] for t in got["traffic"])
        rows.append((name, f"iopub {kind}: {n:g} messages", size / 1e3))
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=7)
    parser.add_argument("--only", action="append", default=None)
    parser.add_argument("--cpu", action="store_true", help="time the steps in the kernel main thread's CPU time")
    parser.add_argument("--no-profile", action="store_true", help="the cells run as `%%%%paef --no-profile`")
    args = parser.parse_args()
    import torch

    torch.set_num_threads(1)  # as the kernels' set-up does: the machine line reports it
    names = args.only or ["ping_pong", "adam_mlp_400"]
    data, rows = {}, []
    for name in names:
        data[name] = got = measure(name, args.repeats, "thread_time" if args.cpu else "perf_counter",
                                      " --no-profile" if args.no_profile else "")
        rows += rows_of(name, got, args.cpu)
    write(Table(
        name=("cell_breakdown" + ("_no_profile" if args.no_profile else "") + ("_cpu" if args.cpu else "")),
        title="Where a warm %%paef" + (" --no-profile" if args.no_profile else "") + " cell's extra "
        + ("kernel CPU time" if args.cpu else "wait") + " goes (one kernel, CPU)",
        columns=("cell", "step", "ms (median; iopub rows: kB)"),
        rows=tuple(rows),
        notes=(
            f"Median of {args.repeats} interleaved plain / %%paef runs in one kernel after paef's one-time "
            "warm-up is done and an untimed round. Steps are "
            + ("the kernel main thread's CPU times" if args.cpu else "wall times inside the kernel")
            + ", taken by wrapping each step (nothing else "
            "changes); the profiler's start and stop happen inside the cell's code and are part of it. "
            "'The rest' rows are what the named steps leave of their enclosing step.",
            "iopub rows: messages the kernel sent for the cell and their JSON size (kB), as the client "
            "receives them.",
            "Kernel CPU time: of the kernel process, all its threads (its I/O thread sends the messages), "
            "per cell; unlike the waits it does not grow while other processes hold the cores, which on "
            "this shared 2-core box they often do.",
        ),
        machine=machine(),
        command=command_line(),
        data=data,
    ))


if __name__ == "__main__":
    sys.exit(main())
