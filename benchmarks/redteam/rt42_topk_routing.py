# corpus: runnable
"""Mixture-of-experts style routing: per step the top-k experts, the sorted order of scores with
ties and the nonzero rows are turned into Python lists and back, and per-expert counts are kept
with `index_add_` / `scatter_` / `masked_fill_` in place."""
import numpy as np
import torch

torch.manual_seed(0)
device = 'cuda' if torch.cuda.is_available() else 'cpu'

gate = torch.nn.Linear(4, 6).to(device)
opt = torch.optim.SGD(gate.parameters(), lr=0.1)
counts = torch.zeros(6, device=device)
load = torch.zeros(6, device=device)
x_all = torch.randn(20, 4)
history = []
for step in range(4):
    x = x_all[step * 5:(step + 1) * 5].to(device)
    logits = gate(x)
    scores = (logits * 4).round() / 4  # coarse scores: ties on purpose
    top = torch.tensor(scores.topk(2, dim=1).indices.cpu().tolist()).to(device)
    counts.index_add_(0, top.flatten(), torch.ones(top.numel(), device=device))
    order = torch.from_numpy(np.argsort(scores[:, 0].detach().cpu().numpy())).to(device)
    ranked = torch.tensor(torch.sort(scores[:, 1].detach(), stable=True).indices.cpu().numpy()).to(device)
    rows = torch.from_numpy(np.nonzero(scores[:, 2].detach().cpu().numpy() > 0)[0]).to(device)
    uniq = torch.tensor(np.unique(top.cpu().numpy())).to(device)
    onehot = torch.zeros(5, 6, device=device).scatter_(1, top[:, :1], 1.0)
    masked = logits.masked_fill(onehot == 0, -1e4)
    load.masked_fill_(load > 3, 0.0)
    load.scatter_add_(0, uniq, torch.ones(len(uniq), device=device))
    loss = -torch.log_softmax(masked, dim=1).max(dim=1).values.mean() + 0.01 * logits.pow(2).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
    history.append((order.tolist(), ranked.tolist(), rows.tolist(), uniq.tolist(), uniq.dtype, order.dtype, rows.dtype))
    print(f"step {step} loss {loss.item():.10f}")
for h in history:
    print(h)
print("counts", counts.tolist(), "load", load.tolist())
