# corpus: runnable
# Red team 61 (blind): ULMFiT-style gradual unfreezing with discriminative learning rates. A 4-block encoder
# starts fully frozen (requires_grad False on every block) with a trainable head; each time the validation loss
# stops improving by `min_delta`, the next block from the top is unfrozen mid-training
# (`for p in block.parameters(): p.requires_grad = True`). One optimizer holds every block from the start (one
# parameter group per block, learning rate decayed by depth); frozen blocks simply get no gradient. The running
# training loss is a Python float read by the plateau test after each epoch; the gradient norm of the unfrozen
# part is logged per step with .item().
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(6106)
torch.set_num_threads(1)
device = 'cuda' if torch.cuda.is_available() else 'cpu'

N, D, C = 420, 14, 4
Wt = torch.randn(D, C)
xs = torch.randn(N, D)
ys = (torch.tanh(xs @ Wt) + 0.3 * torch.randn(N, C)).argmax(1)
xs, ys = xs.to(device), ys.to(device)
x_tr, y_tr, x_va, y_va = xs[:320], ys[:320], xs[320:], ys[320:]

blocks = nn.ModuleList([nn.Sequential(nn.Linear(D if i == 0 else 32, 32), nn.LayerNorm(32), nn.GELU())
                        for i in range(4)]).to(device)
head = nn.Linear(32, C).to(device)
for p in blocks.parameters():
    p.requires_grad = False

groups = [{'params': head.parameters(), 'lr': 1e-2}]
for depth, block in enumerate(reversed(blocks)):
    groups.append({'params': block.parameters(), 'lr': 1e-2 / (2.6 ** (depth + 1))})
opt = torch.optim.Adam(groups)


def forward(x):
    for block in blocks:
        x = block(x)
    return head(x)


unfrozen = 0
best = float('inf')
min_delta = 0.01
grad_log = []
events = []
for epoch in range(10):
    train_total = 0.0
    for i in range(0, x_tr.shape[0], 32):
        xb, yb = x_tr[i:i + 32], y_tr[i:i + 32]
        loss = F.cross_entropy(forward(xb), yb)
        opt.zero_grad()
        loss.backward()
        gn = 0.0
        for p in blocks.parameters():
            if p.grad is not None:
                gn += p.grad.pow(2).sum().item()
        grad_log.append(gn ** 0.5)
        opt.step()
        train_total += loss.item() * xb.shape[0]
    with torch.no_grad():
        val = F.cross_entropy(forward(x_va), y_va).item()
    train_avg = train_total / x_tr.shape[0]
    if val > best - min_delta and unfrozen < len(blocks):
        unfrozen += 1
        for p in blocks[-unfrozen].parameters():
            p.requires_grad = True
        events.append((epoch, unfrozen, round(train_avg, 4)))
    best = min(best, val)
    print(f'epoch {epoch} train {train_avg:.4f} val {val:.4f} unfrozen {unfrozen}')

gl = torch.tensor(grad_log)
print('events', events, 'grad', round(gl.sum().item(), 4), round(gl.max().item(), 4))
print('checksum', round(sum(p.double().sum().item() for p in blocks.parameters()), 6), round(best, 6))
