"""Public check 60 (benchmarks/results/public_check60.md): a fact graph-retention lacked.

p04 (a GAN notebook) adds what its per-step helpers return to epoch totals. The generator's
helper returns `loss` (a name it back-propagated: reported), the discriminator's returns
`loss_real + loss_fake`, and `_returns_backwarded_loss` only knew a returned *name*, so the sum,
which references both graphs, went unreported. Now arithmetic of back-propagated names and number
literals counts too; a name bound again after its `.backward()` (`loss = loss.item()`) no longer
does (it was taken for the loss before). The shape under tests/fixtures/public_shapes/check60/ is
own-written; the public copies are kept out of the repository."""
from __future__ import annotations

from pathlib import Path

from public_findings import rule_findings, tagged_line

SHAPE = Path(__file__).resolve().parent / "fixtures" / "public_shapes" / "check60" / "gan_epoch_totals.py"
RULE = "graph-retention"


def test_a_step_helper_returning_the_sum_of_its_backwarded_losses_is_reported() -> None:
    text = SHAPE.read_text()
    found = rule_findings(SHAPE, text, RULE)
    assert set(found) == {tagged_line(text, "d_total"), tagged_line(text, "g_total")}
    assert "train_discriminator(real, fake)" in found[tagged_line(text, "d_total")].message


def test_the_sum_returned_as_numbers_or_detached_stays_silent() -> None:
    text = SHAPE.read_text()
    d_line = tagged_line(text, "d_total")
    for returned in ("loss_real.item() + loss_fake.item()", "(loss_real + loss_fake).detach()",
                     "float((loss_real + loss_fake).detach())", "loss_real.detach() + loss_fake"):
        variant = text.replace("    return loss_real + loss_fake\n", f"    return {returned}\n")
        assert variant != text
        assert d_line not in rule_findings(SHAPE, variant, RULE), returned


def test_a_helper_that_binds_its_loss_to_a_number_after_backward_stays_silent() -> None:
    """`loss.backward(); loss = loss.item(); return loss` hands back a float: no graph to keep."""
    text = SHAPE.read_text()
    variant = text.replace("    optim_g.step()\n    return loss\n",
                           "    optim_g.step()\n    loss = loss.item()\n    return loss\n")
    assert variant != text
    found = rule_findings(SHAPE, variant, RULE)
    assert tagged_line(variant, "g_total") not in found
    assert tagged_line(variant, "d_total") in found


def test_a_validation_total_summed_under_no_grad_stays_silent() -> None:
    """p02's near miss: `total_valid_loss += valid_loss` inside `torch.no_grad()` carries no graph."""
    text = SHAPE.read_text()
    assert tagged_line(text, "val") not in rule_findings(SHAPE, text, RULE)
