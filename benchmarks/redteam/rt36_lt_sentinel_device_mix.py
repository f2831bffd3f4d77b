# corpus: runnable
# Red team 36 (blind): early stopping on a validation loss. The history starts with a host sentinel
# (+inf, "no result yet") and the per-epoch validation losses computed on the device are appended; the
# best epoch is read from a tensor built from the history, and the per-batch gradient norms of the last
# epoch are summarised the same way.
import torch
import torch.nn as nn

torch.manual_seed(6)
torch.set_num_threads(1)
device = "cuda" if torch.cuda.is_available() else "cpu"

X = torch.randn(300, 10)
y = X @ torch.randn(10, 1) + 0.1 * torch.randn(300, 1)
Xtr, ytr, Xva, yva = X[:240].to(device), y[:240].to(device), X[240:].to(device), y[240:].to(device)
model = nn.Sequential(nn.Linear(10, 16), nn.Tanh(), nn.Linear(16, 1)).to(device)
opt = torch.optim.SGD(model.parameters(), lr=0.05)

history = [torch.tensor(float("inf"))]
patience, bad = 3, 0
for epoch in range(20):
    norms = []
    for s in range(0, 240, 40):
        loss = nn.functional.mse_loss(model(Xtr[s : s + 40]), ytr[s : s + 40])
        opt.zero_grad()
        loss.backward()
        norms.append(torch.nn.utils.clip_grad_norm_(model.parameters(), 10.0))
        opt.step()
    with torch.no_grad():
        val = nn.functional.mse_loss(model(Xva), yva)
    history.append(val)
    hist = torch.tensor(history)
    if hist[-1] >= hist[:-1].min():
        bad += 1
        if bad >= patience:
            break
    else:
        bad = 0
    grad_norms = torch.tensor(norms)
    print(f"epoch {epoch} val {val.item():.10f} best {hist.min().item():.10f} gnorm-mean {grad_norms.mean().item():.8f}")
print("stopped after", len(history) - 1, "epochs")
