# corpus: runnable
# Red team 48, PROBE after first contact (not blind): the rewritten evaluation helper (evaluate.py, fixed
# on its own) with a forward hook registered by a THIRD module (probes.py) that evaluate.py does not
# import: the hook keeps the activations of the evaluated model, which are saved with torch.save and
# loaded back after training (a graph-carrying tensor loads with requires_grad=True).
import io

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset

from evaluate import evaluate
from probes import ActivationStore, attach_probe

torch.manual_seed(41)
torch.set_num_threads(1)
device = 'cuda' if torch.cuda.is_available() else 'cpu'

model = nn.Sequential(nn.Linear(3, 7), nn.Tanh(), nn.Linear(7, 2)).to(device)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
train = DataLoader(TensorDataset(torch.randn(32, 3), torch.randint(0, 2, (32,))), batch_size=8)
val = DataLoader(TensorDataset(torch.randn(16, 3), torch.randint(0, 2, (16,))), batch_size=8)
store = ActivationStore()
handle = attach_probe(model[1], store)
for epoch in range(2):
    for xb, yb in train:
        xb, yb = xb.to(device), yb.to(device)
        loss = F.cross_entropy(model(xb), yb)
        opt.zero_grad()
        loss.backward()
        opt.step()
    vl, va = evaluate(model, val, device)
    print(f"epoch {epoch} val {vl:.10f} acc {va:.4f}")
handle.remove()
buf = io.BytesIO()
torch.save(store.kept, buf)
loaded = torch.load(io.BytesIO(buf.getvalue()))
print("kept", len(loaded), [t.requires_grad for t in loaded])
print(loaded[-1][0])
