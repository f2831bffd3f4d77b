# corpus: runnable
# Red team 48 (blind): custom autograd in a training loop. A class-count buffer made fresh each step is
# handed to an autograd Function that adds the margin into it IN PLACE (`mark_dirty`); a straight-through
# rounding saves its input; the middle block is checkpointed (its forward re-runs in backward); a tensor
# hook on the hidden activation records gradient norms; an evaluation pass at the end of each epoch.
import torch
import torch.nn as nn
import torch.nn.functional as F

from model import QNet
from ops import CALLS, AddMarginInplace

torch.manual_seed(17)
torch.set_num_threads(1)
device = 'cuda' if torch.cuda.is_available() else 'cpu'

N_CLS = 4
model = QNet(6, 24, N_CLS).to(device)
opt = torch.optim.Adam(model.parameters(), lr=3e-3)
X = torch.randn(64, 6)
Y = torch.randint(0, N_CLS, (64,))
grad_norms = []


def record(grad):
    grad_norms.append(grad.norm().item())


for epoch in range(3):
    model.train()
    for i in range(0, 64, 16):
        xb, yb = X[i:i + 16].to(device), Y[i:i + 16].to(device)
        counts = torch.zeros(N_CLS, device=device)
        h = model.inp(xb)
        h.register_hook(record)
        logits = model(xb)
        counts, logits = AddMarginInplace.apply(counts, logits, yb, 0.35)
        loss = F.cross_entropy(logits, yb) + 0.01 * h.pow(2).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
    print(f"epoch {epoch} loss {loss.item():.10f} counts {counts.tolist()}")
    model.eval()
    correct = 0
    for i in range(0, 64, 32):
        xb, yb = X[i:i + 32].to(device), Y[i:i + 32].to(device)
        correct += (model(xb).argmax(1) == yb).sum().item()
    print(f"epoch {epoch} eval acc {correct / 64:.4f}")

norms = torch.tensor(grad_norms)
print("grad norms", norms.shape, f"{norms.sum().item():.10f}")
print("calls", CALLS, "block runs", model.block.runs)
print("next draw", torch.rand(1).item())
