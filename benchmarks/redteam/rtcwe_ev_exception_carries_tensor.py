# corpus: runnable
# Probe cwe (session 54): a sanity check raises with the offending outputs attached and the
# handler prints the exception (its args hold the tensor, `grad_fn=<...>` included).
import torch
from torch import nn

torch.manual_seed(0)
torch.set_num_threads(1)


class OutOfRange(Exception):
    pass


model = nn.Sequential(nn.Linear(4, 4), nn.Tanh(), nn.Linear(4, 2))
model.eval()
batches = [torch.randn(3, 4) * s for s in (1.0, 4.0, 0.5)]
seen = 0
for xb in batches:
    out = model(xb)
    try:
        if out.abs().max() > 0.6:
            raise OutOfRange("outputs out of range", out[0])
        seen += xb.shape[0]
    except OutOfRange as err:
        print("skipped batch:", err)
print("seen", seen)
