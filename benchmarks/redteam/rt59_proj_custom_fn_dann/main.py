# corpus: runnable
# Red team 59 (blind): domain-adversarial training (DANN) with two hand-written autograd Functions: a gradient
# reversal layer whose backward also adds the squared norm of the reversed gradient into a small stats tensor the
# caller passes in (re-created for every batch and read after backward), and a straight-through rounding of the
# features that saves its input. The reversal strength follows the usual schedule. Domain accuracy and target
# accuracy are evaluated per epoch with the model in eval mode.
import math

import torch
import torch.nn.functional as F

from model import DANN

torch.manual_seed(5908)
torch.set_num_threads(1)
device = 'cuda' if torch.cuda.is_available() else 'cpu'

N, D, C = 384, 10, 3
protos = torch.randn(C, D) * 1.4
ys = torch.randint(0, C, (N,))
xs = protos[ys] + torch.randn(N, D)
yt = torch.randint(0, C, (N,))
xt = (protos[yt] + torch.randn(N, D)) @ (torch.eye(D) + 0.3 * torch.randn(D, D)) + 0.5
xs, ys, xt, yt = xs.to(device), ys.to(device), xt.to(device), yt.to(device)

model = DANN(D, 12, C).to(device)
opt = torch.optim.SGD(model.parameters(), lr=0.03, momentum=0.9)
EPOCHS, BS = 6, 32
steps_per_epoch = N // BS

rev_norms = []
cls_log = []
dom_log = []
for epoch in range(EPOCHS):
    model.train()
    ps, pt = torch.randperm(N, device=device), torch.randperm(N, device=device)
    for i in range(steps_per_epoch):
        p = (epoch * steps_per_epoch + i) / (EPOCHS * steps_per_epoch)
        lam = torch.tensor(2.0 / (1.0 + math.exp(-10 * p)) - 1.0, device=device)
        stats = torch.zeros(2, device=device)
        bs_idx, bt_idx = ps[i * BS:(i + 1) * BS], pt[i * BS:(i + 1) * BS]
        x = torch.cat([xs[bs_idx], xt[bt_idx]])
        dom = torch.cat([torch.zeros(BS), torch.ones(BS)]).to(device)
        logits, dom_logit = model(x, lam, stats)
        cls_loss = F.cross_entropy(logits[:BS], ys[bs_idx])
        dom_loss = F.binary_cross_entropy_with_logits(dom_logit, dom)
        opt.zero_grad()
        (cls_loss + dom_loss).backward()
        opt.step()
        rev_norms.append(stats[0].sqrt() / stats[1])
        cls_log.append(cls_loss.item())
    model.eval()
    dummy = torch.zeros(2, device=device)
    lt, dt = model(xt, torch.tensor(0.0, device=device), dummy)
    _, ds = model(xs, torch.tensor(0.0, device=device), dummy)
    dom_acc = ((torch.cat([ds, dt]) > 0).float() == torch.cat([torch.zeros(N), torch.ones(N)]).to(device)).float().mean()
    dom_log.append((round(dom_acc.item(), 4), round((lt.argmax(1) == yt).float().mean().item(), 4)))

print("rev", round(torch.stack(rev_norms).mean().item(), 5), round(rev_norms[-1].item(), 5))
print("cls", round(sum(cls_log[-12:]) / 12, 4))
print("dom/tgt", dom_log)
print("checksum", round(sum(p.detach().double().sum().item() for p in model.parameters()), 4))
