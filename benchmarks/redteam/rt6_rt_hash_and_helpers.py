# corpus: runnable
# Second wave: tensors built in the loop and used as dict keys or set members (tensors hash by
# identity), wrapped by a bare `Parameter` import; a round trip inside a helper whose callers
# pass a column slice (the helper's parameter is a strided view).
import torch
import torch.nn as nn
from torch.nn import Parameter

torch.manual_seed(0)
torch.set_num_threads(1)
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")

seen = {}
for step in range(3):
    m = torch.ones(2, device=device)
    seen[m] = step
print("dict key", len(seen), sorted(seen.values()))

members = set()
for step in range(3):
    z = torch.full((2,), 3.0, device=device)
    members.add(z)
print("set", len(members))

plist = nn.ParameterList()
for step in range(2):
    plist.append(Parameter(torch.ones(2, device=device)))
plist[0].data.mul_(5)
print("Parameter", [p.tolist() for p in plist])


def show(t):
    c = torch.tensor(t.cpu().numpy()).to(device)
    print("shown", c.stride(), c.is_contiguous())


table = torch.randn(3, 3, device=device)
for step in range(2):
    show(table[:, 0])
