# corpus: runnable
import torch
torch.manual_seed(0)
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
seq_len = 3
def grow():
    global seq_len
    seq_len += 1
for epoch in range(3):
    pos = torch.arange(seq_len, device=device).float()
    print(pos.sum().item())
    grow()
cfg = {"n": 2}
def bump(c):
    c["n"] += 1
for epoch in range(3):
    pos = torch.arange(cfg["n"], device=device).float()
    print(pos.sum().item())
    bump(cfg)
weights = [1.0, 2.0]
for epoch in range(3):
    w = torch.tensor(weights, device=device)
    print(w.sum().item())
    weights.sort(reverse=True)
    weights[:] = [v * 2 for v in weights]
