# corpus: runnable
# Evaluation loops that change leaves needing grad in place (test-time adaptation of a bias, a
# running calibration offset), guarded by `try/except RuntimeError`: under autograd PyTorch
# refuses the in-place change of a leaf that requires grad, under no_grad it applies it.
import torch
import torch.nn as nn

torch.manual_seed(0)
torch.set_num_threads(1)
model = nn.Linear(4, 2).eval()
batches = [torch.randn(3, 4) for _ in range(3)]
refused = 0
outs = []
for xb in batches:
    out = model(xb)
    outs.append(round(out.sum().item(), 5))
    try:
        model.bias.add_(0.5)
    except RuntimeError:
        refused += 1
print("outs", outs, "refused", refused)

offset = torch.zeros(2, requires_grad=True)
skipped = []
for xb in batches:
    logits = model(xb) + offset
    try:
        offset += logits.mean(0)
        skipped.append(False)
    except RuntimeError:
        skipped.append(True)
print("skipped", skipped, offset.detach().tolist())
