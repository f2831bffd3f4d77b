# corpus: runnable
# Factories whose evaluation raises, where the program relies on when: a loop that runs zero
# times for an empty batch list, a failure caught by a handler around the loop that records
# what ran first, a `finally` that prints, `assert` before the factory, a warning turned error.
import warnings

import torch

torch.set_num_threads(1)
log = []


def run(batches, width):
    outs = []
    for b in batches:
        log.append(f"batch {b}")
        t = torch.zeros(width)
        outs.append(t.numel())
    return outs


for batches, width in (([1, 2], 2), ([], -1), ([3], -1)):
    try:
        print("run", run(batches, width))
    except RuntimeError as e:
        print("failed after", log[-1:], type(e).__name__)

seen = []
try:
    for step in range(3):
        seen.append(step)
        t = torch.tensor([[1.0, 2.0], [3.0]])
except ValueError as e:
    print("ragged", seen, type(e).__name__)

steps = []
for step in range(3):
    try:
        assert step > 0, "warmup"
        m = torch.ones(2) * 3
        steps.append(m.tolist())
    except AssertionError:
        steps.append("skip")
print("assert", steps)

with warnings.catch_warnings():
    warnings.simplefilter("error")
    done = []
    try:
        for step in range(2):
            done.append(step)
            t = torch.tensor(torch.ones(2))
    except UserWarning:
        print("warned at", done)
