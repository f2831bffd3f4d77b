"""Public check 58 (benchmarks/results/public_check58.md): a fact elementwise-loop lacked.

p01 (a time-series transformer) rebuilt every batch with `torch.stack([item[0] for item in data])`,
`data` a slice of a tensor held on the device: iterating a tensor yields its rows, so the stacked
parts are `data[:, 0]`, one view instead of an indexing op per row and a copy. elementwise-loop knew
row gathers over `range` / `enumerate` and over index tensors, not a comprehension over the rows of
the tensor itself. The shapes under tests/fixtures/public_shapes/check58/ are own-written; the
public copies are kept out of the repository."""
from __future__ import annotations

from pathlib import Path

import torch

from public_findings import rule_findings, tagged_line

SHAPES = Path(__file__).resolve().parent / "fixtures" / "public_shapes" / "check58"


def test_stacking_one_part_of_every_row_of_a_device_tensor_is_reported() -> None:
    path = SHAPES / "ts_batches_from_rows.py"
    text = path.read_text()
    found = rule_findings(path, text, "elementwise-loop")
    assert set(found) == {tagged_line(text, "inputs"), tagged_line(text, "targets")}
    hint = found[tagged_line(text, "inputs")].fix
    assert hint is not None and not hint.safe and hint.suggestion == "rows[:, 0]"


def test_the_hinted_view_holds_the_stacked_values() -> None:
    """The hint is review-only (a view where the stack copied); its values are the stack's."""
    rows = torch.randn(9, 2, 6)
    for part, view in (("pair[0]", "rows[:, 0]"), ("pair[1]", "rows[:, 1]"), ("pair[:, 2:4]", "rows[:, :, 2:4]")):
        stacked = eval(f"torch.stack([{part} for pair in rows])")
        assert torch.equal(stacked, eval(view))


def test_the_same_comprehension_over_a_list_of_sample_pairs_stays_silent() -> None:
    """The collate shape: a Python list of (input, target) tensors has no `[:, 0]`."""
    path = SHAPES / "ts_batches_from_rows.py"
    text = path.read_text()
    listed = text.replace("    return torch.FloatTensor(np.array(pairs)).to(device)\n",
                          "    return [(torch.tensor(a, device=device), torch.tensor(b, device=device)) for a, b in pairs]\n")
    assert listed != text
    assert rule_findings(path, listed, "elementwise-loop") == {}


def test_a_prediction_that_differentiates_its_input_is_not_an_unneeded_forward() -> None:
    """p02 (a Hamiltonian NN): `predict` in `eval()` without `no_grad` is required."""
    path = SHAPES / "hnn_predict_needs_grad.py"
    text = path.read_text()
    assert rule_findings(path, text, "eval-without-no-grad") == {}
