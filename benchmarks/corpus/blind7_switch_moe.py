# corpus: runnable
"""Switch-Transformer-style top-1 mixture of experts in an MLP classifier: the router's load
balancing loss counts tokens per expert with a histogram built on the host and moved, and the
per-expert dispatch loop is the usual readable form."""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
E, D = 4, 32


class SwitchFFN(nn.Module):
    def __init__(self):
        super().__init__()
        self.router = nn.Linear(D, E)
        self.experts = nn.ModuleList(nn.Sequential(nn.Linear(D, 64), nn.ReLU(), nn.Linear(64, D)) for _ in range(E))

    def forward(self, x):
        probs = F.softmax(self.router(x), -1)
        gate, choice = probs.max(-1)
        out = torch.zeros_like(x)
        for e, expert in enumerate(self.experts):
            sel = choice == e
            out[sel] = gate[sel, None] * expert(x[sel])
        counts = torch.zeros(E).to(x.device)  # paef: expect cpu-then-move; ok redundant-tensor
        counts.index_add_(0, choice, torch.ones_like(gate))
        frac = counts / x.shape[0]
        aux = E * (frac * probs.mean(0)).sum()
        return x + out, aux


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.inp = nn.Linear(16, D)
        self.moe = SwitchFFN()
        self.out = nn.Linear(D, 3)

    def forward(self, x):
        h, aux = self.moe(F.relu(self.inp(x)))
        return self.out(h), aux


X = torch.randn(1024, 16)
Y = (X[:, 0] > 0).long() + (X[:, 1] > 0.5).long()
X, Y = X.to(device), Y.to(device)
model = Net().to(device)
opt = torch.optim.Adam(model.parameters(), lr=3e-3)
aux_hist = []
for step in range(200):
    idx = torch.randint(0, 900, (64,), device=device)
    logits, aux = model(X[idx])
    loss = F.cross_entropy(logits, Y[idx]) + 0.01 * aux
    opt.zero_grad()
    loss.backward()
    opt.step()
    aux_hist.append(aux.item())  # paef: expect host-sync
print(f"mean aux {sum(aux_hist) / len(aux_hist):.4f}")
model.eval()
with torch.no_grad():
    acc = (model(X[900:])[0].argmax(1) == Y[900:]).float().mean()
print(f"held-out acc {acc.item():.3f}")
