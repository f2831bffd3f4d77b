# corpus: runnable
# Red team 58 (blind): online (mutual) distillation between two peer classifiers on a made-up 4-class problem,
# plus a frozen pretrained "anchor" teacher. Each step every peer fits the labels and is pulled toward the other
# peer's softened prediction. The partner's prediction is taken in eval mode (no dropout noise in the target),
# but it is NOT detached: the KL term trains both peers (one optimizer over both). The anchor teacher is trained
# first, then frozen (eval mode, requires_grad off) and only ever supplies targets. Per-peer accuracies are kept
# in a dict of lists and averaged at the end.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(5802)
torch.set_num_threads(1)
device = 'cuda' if torch.cuda.is_available() else 'cpu'

N, D, C = 512, 12, 4
centers = torch.randn(C, D) * 1.5
y_all = torch.randint(0, C, (N,))
x_all = centers[y_all] + torch.randn(N, D)
x_all, y_all = x_all.to(device), y_all.to(device)


def make_net(width):
    return nn.Sequential(nn.Linear(D, width), nn.ReLU(), nn.Dropout(0.3), nn.Linear(width, C)).to(device)


anchor = make_net(64)
opt_t = torch.optim.SGD(anchor.parameters(), lr=0.1)
for step in range(60):
    idx = torch.randint(0, N, (64,))
    loss = F.cross_entropy(anchor(x_all[idx]), y_all[idx])
    opt_t.zero_grad()
    loss.backward()
    opt_t.step()
anchor.eval()
anchor.requires_grad_(False)

peers = [make_net(24), make_net(24)]
opt = torch.optim.Adam([p for net in peers for p in net.parameters()], lr=3e-3)
T = 2.0
acc = {0: [], 1: []}
kl_log = []


def soft_target(net, xb):
    net.eval()
    out = net(xb) / T
    net.train()
    return out


for step in range(80):
    idx = torch.randint(0, N, (64,))
    xb, yb = x_all[idx], y_all[idx]
    anchor_logits = anchor(xb)
    total = 0.0
    for i, net in enumerate(peers):
        other = peers[1 - i]
        logits = net(xb)
        partner = soft_target(other, xb)
        kl = F.kl_div(F.log_softmax(logits / T, -1), F.softmax(partner, -1), reduction='batchmean') * T * T
        kd = F.kl_div(F.log_softmax(logits / T, -1), F.softmax(anchor_logits / T, -1), reduction='batchmean')
        total = total + F.cross_entropy(logits, yb) + 0.5 * kl + 0.5 * kd
        acc[i].append((logits.argmax(-1) == yb).float().mean().item())
        kl_log.append(kl.item())
    opt.zero_grad()
    total.backward()
    opt.step()

for net in peers:
    net.eval()
with torch.no_grad():
    final = [(net(x_all).argmax(-1) == y_all).float().mean().item() for net in peers]
per_peer = torch.tensor([sum(acc[i][-20:]) / 20 for i in range(2)])
print('final acc', [round(a, 4) for a in final], 'train acc', per_peer.round(decimals=4).tolist())
print('kl mean', round(sum(kl_log[-20:]) / 20, 5))
print('checksum', round(sum(p.double().sum().item() for net in peers for p in net.parameters()), 6))
