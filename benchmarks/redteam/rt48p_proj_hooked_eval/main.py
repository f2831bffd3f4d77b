# corpus: runnable
# Red team 48, PROBE after first contact (not blind): the first contact's rewritten evaluation helper
# (evaluate.py, fixed on its own), now called on a model that carries a forward hook registered in
# main.py: the hook keeps the hidden activations themselves, which are saved with torch.save and loaded
# back (a tensor with a graph loads with requires_grad=True), and a second hook keeps the output's
# `requires_grad` flag per call.
import io

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset

from evaluate import evaluate

torch.manual_seed(12)
torch.set_num_threads(1)
device = 'cuda' if torch.cuda.is_available() else 'cpu'

model = nn.Sequential(nn.Linear(3, 10), nn.ReLU(), nn.Linear(10, 2)).to(device)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
train = DataLoader(TensorDataset(torch.randn(40, 3), torch.randint(0, 2, (40,))), batch_size=8)
val = DataLoader(TensorDataset(torch.randn(16, 3), torch.randint(0, 2, (16,))), batch_size=8)
acts = []
flags = []
model[1].register_forward_hook(lambda m, i, o: acts.append(o) if not m.training else None)
model[2].register_forward_hook(lambda m, i, o: flags.append(o.requires_grad))
for epoch in range(2):
    for xb, yb in train:
        xb, yb = xb.to(device), yb.to(device)
        loss = F.cross_entropy(model(xb), yb)
        opt.zero_grad()
        loss.backward()
        opt.step()
    vl, va = evaluate(model, val, device)
    print(f"epoch {epoch} val {vl:.10f} acc {va:.4f}")
buf = io.BytesIO()
torch.save(acts, buf)
print("loaded", torch.load(io.BytesIO(buf.getvalue()))[0][0])
print("flags", flags[-4:], sum(flags))
