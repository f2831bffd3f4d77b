# corpus: runnable
# Red team 21: a model of a local module whose forward asks `torch.is_grad_enabled()` (a
# training-time temperature): under no_grad the evaluation loop takes the other branch.
import torch

from layers import GatedScorer

torch.set_num_threads(1)
torch.manual_seed(21)
model = GatedScorer(8)
model.eval()
batches = [torch.randn(4, 8) for _ in range(4)]
correct = 0
for x in batches:
    out = model(x)
    correct += int((out > 0).sum())
print("eval positives", correct)
