# corpus: runnable
# Red team 61 (blind): transfer learning on a made-up 5-class problem. A "pretrained" MLP with BatchNorm is fitted
# on task A. For task B its body is taken as a slice (`nn.Sequential(*list(pre.children())[:-1])`: the SAME
# layers, not a copy) and kept in eval mode for the whole fine-tune so the BatchNorm statistics of task A stay
# fixed; a new head is trained with a large learning rate while the body is still fine-tuned with a small one
# through the parameter groups of `pre` (layer-wise learning rates). So the body's forward runs in eval mode
# inside the training loop and its output must keep its graph. Validation runs every epoch in eval mode.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(6101)
torch.set_num_threads(1)
device = 'cuda' if torch.cuda.is_available() else 'cpu'

D, H, C = 16, 48, 5
proto_a = torch.randn(C, D) * 1.2
proto_b = proto_a[torch.randperm(C)] + 0.4 * torch.randn(C, D)


def make_task(proto, n, seed):
    gen = torch.Generator().manual_seed(seed)
    y = torch.randint(0, C, (n,), generator=gen)
    x = proto[y] + torch.randn(n, D, generator=gen)
    return x.to(device), y.to(device)


xa, ya = make_task(proto_a, 600, 1)
xb_all, yb_all = make_task(proto_b, 240, 2)
xv, yv = make_task(proto_b, 200, 3)

pre = nn.Sequential(
    nn.Linear(D, H), nn.BatchNorm1d(H), nn.ReLU(),
    nn.Linear(H, H), nn.BatchNorm1d(H), nn.ReLU(),
    nn.Linear(H, C),
).to(device)
opt_a = torch.optim.Adam(pre.parameters(), lr=3e-3)
for step in range(120):
    idx = torch.randint(0, xa.shape[0], (64,))
    loss = F.cross_entropy(pre(xa[idx]), ya[idx])
    opt_a.zero_grad()
    loss.backward()
    opt_a.step()

body = nn.Sequential(*list(pre.children())[:-1])
head = nn.Linear(H, C).to(device)
groups = [
    {'params': head.parameters(), 'lr': 5e-2},
    {'params': [p for n, p in pre.named_parameters() if n.startswith('3.') or n.startswith('4.')], 'lr': 5e-3},
    {'params': [p for n, p in pre.named_parameters() if n.startswith('0.') or n.startswith('1.')], 'lr': 1e-3},
]
opt = torch.optim.SGD(groups, momentum=0.9)
body.eval()


def validate():
    head.eval()
    correct = 0
    total_loss = 0.0
    for i in range(0, xv.shape[0], 50):
        feats = body(xv[i:i + 50])
        logits = head(feats)
        total_loss += F.cross_entropy(logits, yv[i:i + 50], reduction='sum').item()
        correct += (logits.argmax(1) == yv[i:i + 50]).sum().item()
    head.train()
    return total_loss / xv.shape[0], correct / xv.shape[0]


history = []
lr_trace = []
for epoch in range(6):
    perm = torch.randperm(xb_all.shape[0])
    running = 0.0
    for i in range(0, xb_all.shape[0], 40):
        idx = perm[i:i + 40]
        xb, yb = xb_all[idx], yb_all[idx]
        feats = body(xb)
        loss = F.cross_entropy(head(feats), yb)
        opt.zero_grad()
        loss.backward()
        opt.step()
        running += loss.item()
    for g in opt.param_groups:
        g['lr'] *= 0.8
    lr_trace.append([g['lr'] for g in opt.param_groups])
    vloss, vacc = validate()
    history.append((running, vloss, vacc))
    print(f'epoch {epoch} train {running:.4f} val {vloss:.4f} acc {vacc:.3f}')

hist = torch.tensor(history, dtype=torch.float64)
lrs = torch.tensor(lr_trace)
drift = sum((p.detach().double() ** 2).sum().item() for p in body.parameters())
print('hist', hist[:, 1].round(decimals=4).tolist(), 'lrs', lrs[-1].tolist())
print('checksum', round(drift, 5), round(sum(p.double().sum().item() for p in head.parameters()), 6))
