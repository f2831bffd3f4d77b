# corpus: runnable
# Red team 61 (blind): sparse training with magnitude pruning and regrowth on a made-up regression. The dense
# weights keep training; every epoch a fresh mask is computed from the CURRENT magnitudes (so pruned weights can
# grow back), written through a flat view of the mask, and re-applied after each optimizer step
# (`w.mul_(mask)` on a copy used for the forward). A per-layer keep ratio schedule ramps sparsity up. The masks
# of the last epoch are kept for a report; a per-step noise scale for the regrowth is a constant tensor.
import torch
import torch.nn as nn

torch.manual_seed(6102)
torch.set_num_threads(1)
device = 'cuda' if torch.cuda.is_available() else 'cpu'

N, D, H = 512, 20, 32
w_true = torch.randn(D, 1) * (torch.rand(D, 1) > 0.6)
x = torch.randn(N, D)
y = x @ w_true + 0.05 * torch.randn(N, 1)
x, y = x.to(device), y.to(device)

net = nn.Sequential(nn.Linear(D, H), nn.Tanh(), nn.Linear(H, 1)).to(device)
prunable = [net[0].weight, net[2].weight]
opt = torch.optim.SGD(net.parameters(), lr=0.05, momentum=0.8)
keep_sched = [1.0, 0.8, 0.6, 0.45, 0.35, 0.3, 0.3, 0.3]


def magnitude_mask(w, keep):
    mask = torch.ones(w.shape, device=w.device)
    flat = mask.view(-1)
    k = int(flat.numel() * (1 - keep))
    if k > 0:
        order = w.detach().abs().view(-1).argsort()
        flat[order[:k]] = 0.0
    return mask


losses = []
density = []
for epoch, keep in enumerate(keep_sched):
    masks = [magnitude_mask(w, keep) for w in prunable]
    gate = torch.ones(H, device=device)
    gflat = gate.flatten()
    dead = (masks[1].sum(0) == 0).nonzero().view(-1)
    gflat[dead] = 0.0
    tot = 0.0
    for i in range(0, N, 64):
        xb, yb = x[i:i + 64], y[i:i + 64]
        with torch.no_grad():
            for w, m in zip(prunable, masks):
                w.mul_(m)
        h = torch.tanh(net[0](xb)) * gate
        pred = net[2](h)
        loss = ((pred - yb) ** 2).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
        tot += loss.item()
    jitter = torch.full((H,), 1e-3, device=device)
    with torch.no_grad():
        net[0].bias.add_(jitter * (gate == 0))
    losses.append(tot / (N // 64))
    density.append([m.mean().item() for m in masks])
    print(f'epoch {epoch} keep {keep:.2f} loss {losses[-1]:.5f} dead {dead.numel()}')

with torch.no_grad():
    for w, m in zip(prunable, masks):
        w.mul_(m)
    final = ((net(x) - y) ** 2).mean().item()
dens = torch.tensor(density)
print('density', dens.round(decimals=4).tolist())
print('checksum', round(final, 6), round(sum(losses), 6), int(sum(m.sum().item() for m in masks)))
