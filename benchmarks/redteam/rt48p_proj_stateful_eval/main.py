# corpus: runnable
# Red team 48, PROBE after first contact (not blind): the stateful-model shape as a project. The model
# (model.py) carries its LSTM state between calls; the validation helper (evaluate.py, fixed on its own
# by `paef fix evaluate.py`) runs it with autograd on; training truncates the state only after each
# step, so the first step after validation back-propagates into the validation forwards too.
import torch
import torch.nn.functional as F

from evaluate import validate
from model import CarryLSTM

torch.manual_seed(4)
torch.set_num_threads(1)
device = 'cuda' if torch.cuda.is_available() else 'cpu'

model = CarryLSTM(2, 6).to(device)
opt = torch.optim.Adam(model.parameters(), lr=0.02)
train = [(torch.randn(3, 4, 2).to(device), torch.randn(3, 1).to(device)) for _ in range(4)]
val = [(torch.randn(3, 4, 2).to(device), torch.randn(3, 1).to(device)) for _ in range(2)]
for epoch in range(3):
    for xb, yb in train:
        loss = F.l1_loss(model(xb), yb)
        opt.zero_grad()
        loss.backward()
        opt.step()
        model.truncate()
    print(f"epoch {epoch} train {loss.item():.10f} val {validate(model, val):.10f}")
print("weight sum", f"{sum(p.sum().item() for p in model.parameters()):.10f}")
