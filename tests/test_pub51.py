"""Public check 51: a boolean-mask read `x[mask]` of a device tensor on every time step of a
spiking network's unrolled neuron (an implicit `nonzero`: the host reads the count), in a helper
that both the training loop and an accuracy helper call; `x[mask] = 1.0` (a `masked_fill_`) stays
silent; and a routing tensor made on the CPU then moved with a config dict's device entry
(`b.to(self.args['device'])`). The shape is own-written; the public copies are kept out of the
repository."""
from __future__ import annotations

from pathlib import Path

from public_findings import rule_findings, tagged_line

ROOT = Path(__file__).resolve().parents[1]
SHAPE = ROOT / "tests" / "fixtures" / "public_shapes" / "check51" / "snn_time_steps.py"


def _findings(text: str, rule: str) -> dict[int, bool]:
    return {line: f.fixable for line, f in rule_findings(SHAPE, text, rule).items()}


def test_mask_read_on_every_time_step_is_a_sync_with_no_rewrite() -> None:
    text = SHAPE.read_text()
    found = _findings(text, "host-sync")
    line = tagged_line(text, "mask-read")
    assert line in found
    assert not found[line], "a hint only: the fixed-size form changes the code's shape"


def test_a_number_stored_through_a_mask_is_no_read() -> None:
    text = SHAPE.read_text()
    assert tagged_line(text, "fill") not in _findings(text, "host-sync")


def test_a_move_to_a_config_dicts_device_entry_is_a_copy_every_forward() -> None:
    text = SHAPE.read_text()
    found = _findings(text, "cpu-then-move")
    assert tagged_line(text, "keyed-move") in found


def test_the_same_mask_read_on_the_host_is_silent() -> None:
    text = SHAPE.read_text().replace('device = torch.device("cuda" if torch.cuda.is_available() else "cpu")',
                                     'device = torch.device("cpu")')
    found = _findings(text, "host-sync")
    assert tagged_line(text, "mask-read") not in found
