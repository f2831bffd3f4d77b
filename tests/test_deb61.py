"""deb61: the debatable findings of public checks 39-49, by category (benchmarks/results/debatable61.md).

Five categories changed: a module called once per *piece* of a split is not a call per sample
(elementwise-loop: silent); a per-step read beside an enabled `GradScaler`'s step is a second sync
(host-sync: low, said), and so is one beside another read the step shows every step; a per-step read
that goes to a display says so (host-sync: the trade-off named); a CPU-then-move in code where nothing uses an accelerator is a no-op as run (cpu-then-move:
low, said). The public programs are kept out of the repository: the shapes under
tests/fixtures/public_shapes/deb61/ are own-written."""
from __future__ import annotations

from pathlib import Path

from paef_jupyter.api import analyze_path
from paef_jupyter.model import Severity
from public_findings import write_notebook

HERE = Path(__file__).parent
RULES = HERE / "fixtures" / "rules"
SHAPES = HERE / "fixtures" / "public_shapes"

SECOND_SYNC = "a second device sync in a step that already has one"
DISPLAY = "for a per-step display"
NO_OP = "as it runs here the move is a no-op"


def _by_line(path: Path, rule: str) -> dict[int, tuple[Severity, str]]:
    report = analyze_path(str(path), rules=[rule])
    assert not report.errors
    return {f.line: (f.severity, f.message) for f in report.findings}


def test_check48_experts_called_once_per_piece_of_a_split_are_not_per_sample() -> None:
    assert _by_line(SHAPES / "deb61" / "c48_experts_split.py", "elementwise-loop") == {}
    # near misses: pieces of one row, a name one branch binds to the batch itself
    found = _by_line(RULES / "elementwise-loop" / "pos_module_per_piece_of_one_row.py", "elementwise-loop")
    assert set(found) == {17, 32}
    assert all("once per sample" in message for _, message in found.values())


def test_read_beside_a_grad_scaler_step_is_a_second_sync() -> None:
    found = _by_line(RULES / "host-sync" / "pos_read_beside_a_grad_scaler_step.py", "host-sync")
    lowered = {line for line, (severity, message) in found.items() if severity is Severity.LOW and SECOND_SYNC in message}
    assert lowered == {34, 46}  # a plain scaler; `self.scaler` enabled by `torch.cuda.is_available()`
    # fused optimizer, scaler enabled by a flag not tied to CUDA, scaler step under a branch, a read per micro-batch,
    # a scaler whose device is a name: the premise does not hold, the usual high finding stays
    for line in (59, 71, 80, 95, 109):
        severity, message = found[line]
        assert severity is Severity.HIGH and SECOND_SYNC not in message, line


def test_check49_tcn_read_under_a_grad_scaler_keeps_its_exact_rewrite() -> None:
    report = analyze_path(str(SHAPES / "deb61" / "c49_tcn_scaler.py"), rules=["host-sync"])
    (finding,) = report.findings
    assert finding.line == 22 and finding.severity is Severity.LOW and SECOND_SYNC in finding.message
    assert finding.fixable  # the float64 device accumulation is offered as before


def test_read_beside_a_read_shown_every_step_is_a_second_sync() -> None:
    found = _by_line(RULES / "host-sync" / "pos_read_beside_a_read_shown_every_step.py", "host-sync")
    lowered = {line for line, (severity, message) in found.items() if severity is Severity.LOW and SECOND_SYNC in message}
    # recall 66: the step's wait is its first read (29), which names the display that reads again after it;
    # the reads after it are second syncs (30; the print at 31 waits for nothing: `_already_on_host`)
    assert lowered == {30}
    assert "at line 29, read earlier in the same step" in found[30][1]
    assert found[29][0] is Severity.HIGH and "also shows a device value every step (`loss.item()` at line 31)" in found[29][1]
    # the shown read under a branch, in an inner loop, of a host value, in another loop: the plain message stays
    for line in (39, 49, 59, 69):
        severity, message = found[line]
        assert severity is Severity.HIGH and SECOND_SYNC not in message and DISPLAY not in message, line
    assert DISPLAY in found[51][1] and DISPLAY in found[72][1]
    shape = _by_line(SHAPES / "deb61" / "c39_topic_print_anyway.py", "host-sync")  # check 39 p02's c07 29/31
    assert {line for line, (severity, message) in shape.items() if severity is Severity.LOW and SECOND_SYNC in message} == {22}
    assert shape[21][0] is Severity.HIGH and "also shows a device value every step" in shape[21][1]


def test_read_shown_every_step_names_the_display() -> None:
    found = _by_line(RULES / "host-sync" / "pos_read_shown_every_step.py", "host-sync")
    shown = {line for line, (_, message) in found.items() if DISPLAY in message}
    assert shown == {30, 33, 36, 40}
    assert "`bar.set_postfix`" in found[33][1] and "`logging.info`" in found[40][1]
    assert all(found[line][0] is Severity.HIGH for line in shown)  # the cost is the same: the severity too
    for line in (47, 50, 53, 57, 62):  # a sum, a list, a kept string, a branch-printed string, a branch
        assert DISPLAY not in found[line][1], line


def test_public_checks_displayed_reads() -> None:
    for name, line, display in (("c40_ddpm_bar.py", 30, "`pbar.set_postfix`"), ("c41_probe_prints.py", 27, "`print`"),
                                ("c42_caption_prints.py", 32, "`print`"), ("c47_neural_ca_print.py", 23, "`print`")):
        found = _by_line(SHAPES / "deb61" / name, "host-sync")
        assert DISPLAY in found[line][1] and display in found[line][1], name


def test_cpu_then_move_in_a_program_without_an_accelerator_is_low_and_says_so(tmp_path: Path) -> None:
    cpu = _by_line(RULES / "cpu-then-move" / "pos_device_generic_module_in_a_cpu_program.py", "cpu-then-move")
    gpu = _by_line(RULES / "cpu-then-move" / "pos_device_generic_module_on_a_gpu.py", "cpu-then-move")
    assert set(cpu) == {18, 19} and all(s is Severity.LOW and NO_OP in m for s, m in cpu.values())
    assert set(gpu) == {16, 17} and all(s is Severity.MEDIUM and NO_OP not in m for s, m in gpu.values())
    for shape, lines in (("check41/ozone_lstm_cpu.py", {19, 20}), ("check45/nbeats_cpu.py", {27})):
        found = _by_line(SHAPES / shape, "cpu-then-move")
        assert set(found) == lines and all(s is Severity.LOW and NO_OP in m for s, m in found.values()), shape
    # near miss: the same module in a notebook whose later cell names the device
    module = (RULES / "cpu-then-move" / "pos_device_generic_module_in_a_cpu_program.py").read_text()
    head, _, loop = module.partition("model = Forecaster()\n")
    cells = [head, 'device = "cuda" if torch.cuda.is_available() else "cpu"\n',
             "model = Forecaster().to(device)\n" + loop.replace("model(x), y)", "model(x.to(device)), y.to(device))")]
    path = write_notebook(tmp_path, *cells)
    report = analyze_path(str(path), rules=["cpu-then-move"])
    assert [(f.severity, NO_OP in f.message) for f in report.findings] == [(Severity.MEDIUM, False)] * 2
