"""Public check 57 (benchmarks/results/public_check57.md): a fact sync-dataloader lacked.

p05 (a U-Net with a Dice loss) reads a file per sample in `Dataset.__getitem__` and moves image and
mask to the device there. sync-dataloader advised worker processes for its loader, but a worker
cannot make CUDA tensors (CUDA in a forked worker fails): the advice would break the program, and
pageable-transfer already reports the per-sample move, whose fix (host samples, one move per batch)
is what makes workers possible. The shape under tests/fixtures/public_shapes/check57/ is
own-written; the public copies are kept out of the repository."""
from __future__ import annotations

from pathlib import Path

from public_findings import rule_findings, tagged_line

SHAPES = Path(__file__).resolve().parent / "fixtures" / "public_shapes" / "check57"


def test_a_loader_of_device_samples_is_not_told_to_use_workers() -> None:
    path = SHAPES / "segmentation_device_samples.py"
    text = path.read_text()
    assert rule_findings(path, text, "sync-dataloader") == {}
    moved = rule_findings(path, text, "pageable-transfer")
    assert set(moved) == {tagged_line(text, "sample-move")}


def test_the_same_dataset_with_host_samples_still_gets_workers() -> None:
    """Near misses: the sample cast or copied on the host, or moved in the training loop."""
    path = SHAPES / "segmentation_device_samples.py"
    text = path.read_text()
    loader = tagged_line(text, "loader")
    variants = {
        "cast": text.replace("img = img.to(device)  # tag: sample-move", "img = img.to(torch.float32)  # tag: sample-move")
                    .replace("mask = mask.to(device)", "mask = mask.to(torch.float32)"),
        "to cpu": text.replace("img = img.to(device)  # tag: sample-move", "img = img.to('cpu')  # tag: sample-move")
                      .replace("mask = mask.to(device)", "mask = mask.contiguous()"),
        "moved in the loop": text.replace("        img = img.to(device)  # tag: sample-move\n        mask = mask.to(device)\n", "")
                                 .replace("        optimizer.zero_grad()\n",
                                          "        images, masks = images.to(device), masks.to(device)\n        optimizer.zero_grad()\n"),
    }
    for name, variant in variants.items():
        assert variant != text, name
        found = rule_findings(path, variant, "sync-dataloader")
        shift = variant[:variant.index("loader = DataLoader")].count("\n") + 1 - loader
        assert set(found) == {loader + shift}, name
        assert "worker processes" in found[loader + shift].message, name
