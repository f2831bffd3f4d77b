"""Public check 61 (benchmarks/results/public_check61.md): a fact elementwise-loop lacked.

p04 (a denoising autoencoder with a classifier head) counts test hits one sample at a time:
`for idx, i in enumerate(cls): if torch.argmax(i) == b_z[idx]: correct += 1`, `cls` the third
element of the model's tuple output. elementwise-loop knew element loops over `range`, `zip` and
`for p in t`, not `enumerate(t)` whose index reads sibling tensors, nor a per-row `torch.argmax`; and
`cls`, unpacked from an unseen model's output, had no type. An element handed to a torch function
that takes only a tensor (`torch.argmax(row)`) says what the loop iterates yields tensors. The shapes
under tests/fixtures/public_shapes/check61/ are own-written; the public copies are kept out of the
repository."""
from __future__ import annotations

from pathlib import Path

import torch

from public_findings import rule_findings, tagged_line

SHAPES = Path(__file__).resolve().parent / "fixtures" / "public_shapes" / "check61"
SHAPE = SHAPES / "autoencoder_classifier_test.py"


def test_counting_hits_per_row_of_an_unpacked_model_output_is_reported() -> None:
    text = SHAPE.read_text()
    found = rule_findings(SHAPE, text, "elementwise-loop")
    assert set(found) == {tagged_line(text, "per-sample")}
    hint = found[tagged_line(text, "per-sample")].fix
    assert hint is not None and not hint.safe and not hint.edits  # a hint: lengths are not provable
    assert hint.suggestion == "correct += int((logp.flatten(1).argmax(1) == label).sum())\ntotal += len(logp)"


def test_the_hinted_count_is_the_loop_count() -> None:
    torch.manual_seed(1)
    for logp, label in ((torch.randn(16, 4), torch.randint(0, 4, (16,))), (torch.randn(5, 3, 2), torch.randint(0, 6, (5,)))):
        correct = total = 0
        for idx, row in enumerate(logp):
            if torch.argmax(row) == label[idx]:
                correct += 1
            total += 1
        assert (correct, total) == (int((logp.flatten(1).argmax(1) == label).sum()), len(logp))


def test_look_alikes_stay_silent() -> None:
    """A Python list read at the index, the index kept, NumPy rows, a start offset, an else
    branch: not the one-comparison count the hint rewrites (or not tensors at all)."""
    text = SHAPE.read_text()
    loop = ("            for idx, row in enumerate(logp):  # tag: per-sample\n"
            "                if torch.argmax(row) == label[idx]:\n"
            "                    correct += 1\n")
    assert loop in text
    variants = {
        "a list read at the index": loop.replace("label[idx]", "label.tolist()[idx]"),
        "the index kept": loop.replace("correct += 1", "correct += idx"),
        "NumPy rows": loop.replace("enumerate(logp)", "enumerate(logp.cpu().numpy())").replace("torch.argmax", "np.argmax"),
        "counted from one": loop.replace("enumerate(logp)", "enumerate(logp, 1)").replace("label[idx]", "label[idx - 1]"),
        "an else branch": loop + "                else:\n                    total -= 0\n",
        "numpy's argmax of an unknown iterable": loop.replace("enumerate(logp)", "enumerate(scores)")
        .replace("torch.argmax(row)", "np.argmax(row)"),
    }
    for why, variant in variants.items():
        changed = text.replace(loop, variant).replace("import torch\n", "import numpy as np\nimport torch\n", 1)
        assert changed != text, why
        assert rule_findings(SHAPE, changed, "elementwise-loop") == {}, why
