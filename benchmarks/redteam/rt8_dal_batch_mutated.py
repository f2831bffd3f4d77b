# corpus: runnable
# Batches sliced out of lists of rows kept in a dict, then changed in place by library calls the
# names do not show as in place: `F.dropout(..., inplace=True)`, `F.relu(..., inplace=True)`,
# `torch.clamp(..., out=)`, `nn.init.zeros_`, a `_foreach_` update; and a read-only batch.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_num_threads(1)
data = {
    "a": [[1.0, -2.0], [3.0, -4.0], [5.0, -6.0], [7.0, -8.0]],
    "b": [[0.5, 1.5], [2.5, -3.5], [4.5, 5.5], [-6.5, 7.5]],
    "c": [[1.0, 1.0], [2.0, 2.0], [3.0, 3.0], [4.0, 4.0]],
    "d": [[1.0, 2.0], [3.0, 4.0], [5.0, 6.0], [7.0, 8.0]],
}
for epoch in range(2):
    for s in range(0, 4, 2):
        a = torch.tensor(data["a"][s : s + 2])
        F.relu(a, inplace=True)
        b = torch.tensor(data["b"][s : s + 2])
        torch.clamp(b, min=0.0, out=b)
        c = torch.tensor(data["c"][s : s + 2])
        torch._foreach_mul_([c], 2.0)
        d = torch.tensor(data["d"][s : s + 2])
        print(epoch, a.sum().item(), b.sum().item(), c.sum().item(), d.sum().item())
