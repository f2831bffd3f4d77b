# corpus: runnable
# Red team 48, PROBE after first contact (not blind): the first contact's ping-pong rewrite ends in
# `.float()`, standing for `torch.tensor`'s default dtype. Here the default dtype is set to float64 by a
# helper of a local module (`configure(seed, "fp64")`), called by the entry before the model is built.
import io

import torch
import torch.nn as nn

from setup_env import configure

configure(13, "fp64")
device = 'cuda' if torch.cuda.is_available() else 'cpu'

model = nn.Sequential(nn.Linear(3, 8), nn.Sigmoid(), nn.Linear(8, 4)).to(device)
opt = torch.optim.SGD(model.parameters(), lr=0.3)
X = torch.randn(32, 3).to(device)
T = torch.randn(32, 4).to(device)

kept = []
for epoch in range(3):
    out = model(X)
    loss = (out - T).pow(2).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
    with torch.no_grad():
        first = out[0]
        snap = torch.tensor(first.tolist())
        kept.append(snap)
    print(f"epoch {epoch} loss {loss.item():.12f}")

buf = io.BytesIO()
torch.save(kept, buf)
print("torch.save bytes", len(buf.getvalue()))
print("dtypes", [str(s.dtype) for s in kept], repr(kept[-1].sum().item()))
