"""profile_cell / profile_path: the profiling pipeline end to end on real CPU runs."""

from __future__ import annotations

import json
import sys
import time
from dataclasses import replace

import nbformat
import pytest

torch = pytest.importorskip("torch")

from dynamic_helpers import compile_cell, item_reads  # noqa: E402

from paef_jupyter import api, cell_cache  # noqa: E402
from paef_jupyter.model import CellRef, Report  # noqa: E402
from paef_jupyter.units import InputError  # noqa: E402

REF = CellRef("In[3]", None, "cid")
PING_PONG = """%%paef
import torch
w = torch.randn(16)
total = 0.0
for step in range(60):
    x = w * step
    y = torch.tensor(x.tolist())
    total += y.sum().item()
"""


def run_like_the_magic(text: str, **kw):
    """The body is compiled without the `%%paef` line, as the magic does."""
    body = text.split("\n", 1)[1]
    name, code = compile_cell(body)
    ns: dict = {}

    def execute():
        exec(code, ns)
        return ns.get("total")

    return api.profile_cell(text, ns, ref=REF, execute=execute, filename_to_ref={name: REF}, **kw), ns


def test_profile_cell_confirms_the_static_finding_on_the_cell_line():
    run, _ = run_like_the_magic(PING_PONG)
    assert run.error is None and isinstance(run.value, float)
    report = run.report
    profile = report.profile
    n = profile.profiled_iterations
    assert profile.mode == "window" and profile.window_line == 5 and n == 3  # 5% of 60 iterations
    assert profile.iterations == 60
    assert profile.line(REF, 7).tensor_creations == n  # cell line 7, though compiled as line 6
    assert item_reads(profile, REF, 8) == n
    ping = next(f for f in report.findings if f.rule == "ping-pong")
    assert ping.line == 7 and ping.source == "both" and ping.evidence.measurable
    assert ping.evidence.estimated_saving_s > 0
    assert report.top(1)[0].evidence is not None
    assert profile.postprocess_s > 0
    assert Report.from_json(json.loads(json.dumps(report.to_json()))) == report


def test_profile_cell_full_mode_profiles_the_whole_cell():
    run, _ = run_like_the_magic(PING_PONG, full=True)
    profile = run.report.profile
    assert profile.mode == "full" and item_reads(profile, REF, 8) == 60
    assert profile.line(REF, 3) is not None  # before the loop


def test_profile_cell_returns_the_error_and_keeps_the_report():
    text = PING_PONG + "raise RuntimeError('after the loop')\n"
    run, _ = run_like_the_magic(text)
    assert isinstance(run.error, RuntimeError) and run.value is None
    assert run.report.profile.lines and not torch.autograd.profiler._is_profiler_enabled
    assert sys.gettrace() is None


def test_profile_cell_returns_keyboard_interrupt():
    text = PING_PONG.replace("    total +=", "    if step == 4:\n        raise KeyboardInterrupt\n    total +=")
    run, _ = run_like_the_magic(text)
    assert isinstance(run.error, KeyboardInterrupt)
    assert not torch.autograd.profiler._is_profiler_enabled and sys.gettrace() is None
    assert item_reads(run_like_the_magic(PING_PONG)[0].report.profile, REF, 8) == 3


def test_profile_cell_without_filename_map_finds_the_cell_by_its_text():
    name, code = compile_cell(PING_PONG.split("\n", 1)[1])
    ns: dict = {}
    run = api.profile_cell(PING_PONG, ns, ref=REF, execute=lambda: exec(code, ns))
    assert item_reads(run.report.profile, REF, 8) == 3


def notebook(tmp_path, *sources: str) -> str:
    nb = nbformat.v4.new_notebook()
    nb.cells = [nbformat.v4.new_markdown_cell("# training")] + [nbformat.v4.new_code_cell(s) for s in sources]
    path = tmp_path / "train.ipynb"
    nbformat.write(nb, str(path))
    return str(path)


def test_profile_path_runs_cells_in_one_namespace_and_stops_at_a_failing_cell(tmp_path):
    marker = tmp_path / "ran.txt"
    path = notebook(
        tmp_path,
        "import torch\n%matplotlib inline\nw = torch.randn(8)",
        "def scalar(t):\n    return t.sum().item()",
        "total = 0.0\nfor i in range(30):\n    total += scalar(w * i)",
        "1 / 0",
        f"open({str(marker)!r}, 'w').write('x')",
    )
    report = api.profile_path(path)
    (error,) = report.errors
    assert error.ref.cell == 4 and error.line == 1 and error.message.startswith("ZeroDivisionError")
    assert not marker.exists()
    profile = report.profile
    assert profile.notes[0].startswith("cell 4 failed: ZeroDivisionError")
    n = profile.profiled_iterations
    refs = {s.ref.cell: s.ref for s in profile.lines}
    assert n == 3 and item_reads(profile, refs[3], 3) == n and item_reads(profile, refs[2], 2) == n  # caller and helper
    assert any("IPython syntax" in n for n in profile.notes)
    assert profile.cpu_tree is not None and profile.cpu_tree.kind == "root"


def test_profile_path_of_a_script(tmp_path):
    script = tmp_path / "train.py"
    script.write_text("import torch\nx = torch.ones(3)\nfor i in range(20):\n    v = float(x.sum())\n")
    report = api.profile_path(str(script))
    stat = report.profile.line(CellRef(str(script)), 4)
    assert stat is not None and stat.syncs == 0 and report.errors == ()  # a CPU: nothing waits
    assert item_reads(report.profile, CellRef(str(script)), 4) == 3  # a window of 3 of 20 iterations
    # `x` lives on the CPU: reading it waits for no device, statically or measured.
    assert not any(f.rule == "host-sync" for f in report.findings)


def test_profile_path_bad_input(tmp_path):
    with pytest.raises(ValueError, match="unknown engine"):
        api.profile_path(str(tmp_path / "x.py"), engine="perf")
    bad = tmp_path / "bad.ipynb"
    bad.write_text("{not json")
    with pytest.raises(InputError, match="bad.ipynb"):
        api.profile_path(str(bad))


def test_profile_cell_without_torch_runs_the_cell_and_says_so(monkeypatch):
    monkeypatch.setitem(sys.modules, "torch", None)  # `import torch` raises ImportError
    ns: dict = {}
    name, code = compile_cell("total = sum(range(10))\n")
    run = api.profile_cell("total = sum(range(10))\n", ns, ref=REF, execute=lambda: exec(code, ns) or ns["total"])
    assert run.value == 45 and run.error is None
    assert run.report.profile.mode == "off"
    assert any("torch is not importable" in n for n in run.report.profile.notes)


def test_profile_cell_windows_the_loop_of_an_earlier_cells_function():
    helper_text = "import torch\ndef train(w, n):\n    total = 0.0\n    for i in range(n):\n        total += (w * i).sum().item()\n    return total\n"
    helper_name, helper_code = compile_cell(helper_text)
    ns: dict = {"w": torch.ones(4)}
    exec(helper_code, ns)
    text = "%%paef\ntotal = train(w, 60)\n"
    name, code = compile_cell(text.split("\n", 1)[1])
    run = api.profile_cell(text, ns, ref=REF, execute=lambda: exec(code, ns), filename_to_ref={name: REF})
    profile = run.report.profile
    assert run.error is None and ns["total"] == 4 * sum(range(60))
    helper = CellRef(path=helper_name)
    assert profile.mode == "window" and profile.window_ref == helper and profile.window_line == 4
    n = profile.profiled_iterations
    assert n == 3 and profile.iterations == 60
    assert item_reads(profile, helper, 5) == n and item_reads(profile, REF, 2) == n  # and the calling line
    assert profile.line(REF, 2).encloses_window and not profile.line(helper, 5).encloses_window
    # The calling line holds the whole loop: no dynamic finding of its own.
    assert all(f.line != 2 or f.ref != REF for f in run.report.findings if f.source == "dynamic")


def test_a_crashing_rule_does_not_keep_the_cell_from_running(monkeypatch):
    def broken(*args, **kw):
        raise RecursionError("maximum recursion depth exceeded")

    monkeypatch.setattr(api, "analyze_units", broken)
    monkeypatch.setattr(cell_cache, "_reports", cell_cache._Cache())  # not an earlier test's analysis
    run, ns = run_like_the_magic(PING_PONG)
    assert run.error is None and isinstance(ns["total"], float)
    assert run.report.profile.notes[0] == "static analysis failed: RecursionError: maximum recursion depth exceeded"
    assert item_reads(run.report.profile, REF, 8) == 3
    assert all(f.source == "dynamic" for f in run.report.findings)  # only what was measured


def test_an_unknown_rule_is_a_usage_error_before_anything_runs():
    ran = []
    with pytest.raises(ValueError, match="unknown rule"):
        api.profile_cell("x = 1\n", {}, ref=REF, execute=lambda: ran.append(1), rules=["no-such-rule"])
    assert ran == []


def test_in_ipython_earlier_cells_are_found_through_the_shells_filename_map():
    helper_name, helper_code = compile_cell("def scalar(t):\n    return t.sum().item()\n")

    class Compiler:
        _filename_map = {helper_name: 7}

    class Shell:
        compile = Compiler()

    ns: dict = {"get_ipython": lambda: Shell(), "w": torch.ones(3)}
    exec(helper_code, ns)
    text = "%%paef\nfor i in range(40):\n    v = scalar(w * i)\n"
    name, code = compile_cell(text.split("\n", 1)[1])
    run = api.profile_cell(text, ns, ref=REF, execute=lambda: exec(code, ns), filename_to_ref={name: REF})
    profile = run.report.profile
    assert item_reads(profile, CellRef("In[7]"), 2) == profile.profiled_iterations == 3


def test_overhead_is_what_the_user_waits_over_the_plain_run():
    run, _ = run_like_the_magic(PING_PONG)
    profile = run.report.profile
    assert profile.overhead is not None and profile.overhead >= 1.0
    # The whole wait (analysis, profiled run, report) over the plain run, which is estimated
    # from the unprofiled iterations: at least the run's share of it.
    plain = profile.wall_time_s / profile.overhead
    assert 0 < plain < profile.wall_time_s + profile.postprocess_s


def test_the_overhead_taken_again_once_the_report_is_drawn_is_the_whole_wait():
    """The magic takes the figure again after drawing the report: the same plain run, the wait
    from the magic's start until then."""
    started = time.perf_counter() - 1.0
    run, _ = run_like_the_magic(PING_PONG, started=started)
    profile = run.report.profile
    assert run.stamped_at is not None and run.stamped_at > started
    plain = (run.stamped_at - started) / profile.overhead
    later = api.restamped(run.report, started, run.stamped_at, now=run.stamped_at + 0.5)
    assert abs(later.profile.overhead - (run.stamped_at + 0.5 - started) / plain) < 1e-9
    assert later.findings == run.report.findings and later.profile.lines == profile.lines
    clean = api.restamped(replace(run.report, profile=None), started, run.stamped_at)
    assert clean.profile is None


def test_progress_notes_name_the_iterations_the_profiler_records():
    """The placeholder a `%%paef` cell shows while it runs says which iterations are being
    profiled: the ones the profiler was on for, of the loop's real length."""
    import re

    text = ("%%paef\nimport torch\non = []\nw = torch.randn(16)\nfor step in range(40):\n"
            "    on.append(torch.autograd.profiler._is_profiler_enabled)\n    y = torch.tensor((w * step).tolist())\n")
    notes: list[str] = []
    run, ns = run_like_the_magic(text, progress=notes.append)
    enabled = [i + 1 for i, flag in enumerate(ns["on"]) if flag]
    assert len(notes) == 3 and notes[-1] == "analysing the cell and its profile\u2026", notes
    start = re.fullmatch(r"profiling iterations (\d+)\u2013(\d+) of 40\u2026", notes[0])
    stop = re.fullmatch(r"profiled iterations (\d+)\u2013(\d+) of 40; .*", notes[1])
    assert start and stop and start.groups() == stop.groups(), notes
    first, last = map(int, start.groups())
    assert last == enabled[-1] and last - first + 1 == run.report.profile.profiled_iterations
    assert first > 1  # the first iterations run unprofiled (warm-up)


def test_a_failing_progress_note_never_touches_the_cell():
    def broken(_text: str) -> None:
        raise RuntimeError("the front end went away")

    run, ns = run_like_the_magic(PING_PONG, progress=broken)
    assert run.error is None and run.value == ns["total"] and run.report.profile.profiled_iterations > 0


def test_the_overhead_counts_the_wait_from_when_the_magic_started():
    # The magic passes its own start: the user's wait includes what it did before the run.
    run, _ = run_like_the_magic(PING_PONG, started=time.perf_counter() - 2.0)
    profile = run.report.profile
    assert profile.overhead is not None and profile.overhead > 2.0 / profile.wall_time_s


# --- truth15: a profiled script sees its own command line ---------------------------------------
ARGPARSE_SCRIPT = """import argparse
import sys
import torch

parser = argparse.ArgumentParser("train")
parser.add_argument("--epochs", type=int, default=2)
parser.add_argument("--out", default="")
args = parser.parse_args()
w = torch.ones(4)
for i in range(6 * args.epochs):
    w = w * 0.5
if args.out:
    open(args.out, "w").write(repr(sys.argv[1:]) + " " + str(sys.argv[0].endswith("train.py")))
"""


def test_a_script_that_parses_its_arguments_runs_under_profile_path(tmp_path):
    """Public scripts call `parser.parse_args()` at the top: paef's own command line in
    `sys.argv` stopped them there (SystemExit 2) before any line was profiled (truth15's lstm)."""
    script = tmp_path / "train.py"
    script.write_text(ARGPARSE_SCRIPT)
    before = list(sys.argv)
    sys.argv = ["paef", "profile", str(script), "--json", "out.json"]  # as `paef profile` leaves it
    try:
        report = api.profile_path(str(script))
    finally:
        argv_after, sys.argv = sys.argv, before
    assert report.errors == () and report.profile.profiled_iterations >= 3
    assert argv_after == ["paef", "profile", str(script), "--json", "out.json"]  # restored


def test_script_arguments_reach_the_profiled_script(tmp_path):
    script = tmp_path / "train.py"
    script.write_text(ARGPARSE_SCRIPT)
    out = tmp_path / "argv.txt"
    report = api.profile_path(str(script), script_args=["--epochs", "1", "--out", str(out)])
    assert report.errors == ()
    assert out.read_text() == repr(["--epochs", "1", "--out", str(out)]) + " True"


def test_a_script_with_a_bad_argument_still_stops_with_its_own_usage_error(tmp_path):
    """Near miss: the script's own argv is what it parses, so its own bad argument still fails."""
    script = tmp_path / "train.py"
    script.write_text(ARGPARSE_SCRIPT)
    report = api.profile_path(str(script), script_args=["--epochs", "many"])
    (error,) = report.errors
    assert error.line == 8 and error.message.startswith("SystemExit: 2")


def test_a_script_that_reads_no_arguments_is_unchanged_by_the_argv_it_sees(tmp_path):
    """Near miss: a script that never looks at sys.argv profiles as before (window of 3)."""
    script = tmp_path / "plain.py"
    script.write_text("import torch\nx = torch.ones(3)\nfor i in range(20):\n    v = float(x.sum())\n")
    report = api.profile_path(str(script), script_args=["--ignored"])
    assert report.errors == () and report.profile.profiled_iterations == 3
