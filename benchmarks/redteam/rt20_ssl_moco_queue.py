# corpus: runnable
# MoCo v2 on toy vectors: a momentum key encoder updated under `no_grad`, a queue of keys kept as
# a buffer and written in place (`queue[:, ptr:ptr + k] = keys.T`) with the pointer both as a
# Python int and as a long buffer read with `int(...)`, InfoNCE labels built per step, a kNN
# monitor in evaluation, and a BYOL-style target network.
import copy

import torch
import torch.nn.functional as F
from torch import nn

torch.set_num_threads(1)
torch.manual_seed(4)
device = "cuda" if torch.cuda.is_available() else "cpu"
dim, K, m, tau, bs = 8, 32, 0.9, 0.2, 8


class MoCo(nn.Module):
    def __init__(self):
        super().__init__()
        self.encoder_q = nn.Sequential(nn.Linear(6, 16), nn.ReLU(), nn.Linear(16, dim))
        self.encoder_k = copy.deepcopy(self.encoder_q)
        for p in self.encoder_k.parameters():
            p.requires_grad = False
        self.register_buffer("queue", F.normalize(torch.randn(dim, K), dim=0))
        self.register_buffer("queue_ptr", torch.zeros(1, dtype=torch.long))

    @torch.no_grad()
    def _momentum_update(self):
        for pq, pk in zip(self.encoder_q.parameters(), self.encoder_k.parameters()):
            pk.data = pk.data * m + pq.data * (1.0 - m)

    @torch.no_grad()
    def _dequeue_and_enqueue(self, keys):
        n = keys.shape[0]
        ptr = int(self.queue_ptr)
        self.queue[:, ptr:ptr + n] = keys.T
        ptr = (ptr + n) % K
        self.queue_ptr[0] = ptr

    def forward(self, im_q, im_k):
        q = F.normalize(self.encoder_q(im_q), dim=1)
        with torch.no_grad():
            self._momentum_update()
            k = F.normalize(self.encoder_k(im_k), dim=1)
        l_pos = torch.einsum("nc,nc->n", [q, k]).unsqueeze(-1)
        l_neg = torch.einsum("nc,ck->nk", [q, self.queue.clone().detach()])
        logits = torch.cat([l_pos, l_neg], dim=1) / tau
        labels = torch.zeros(logits.shape[0], dtype=torch.long, device=logits.device)
        self._dequeue_and_enqueue(k)
        return logits, labels


def augment(x):
    return x + 0.1 * torch.randn_like(x)


model = MoCo().to(device)
opt = torch.optim.SGD(model.encoder_q.parameters(), lr=0.05, momentum=0.9)
data = [torch.randn(bs, 6) for _ in range(6)]
total = 0.0
top1 = 0
for epoch in range(2):
    for x in data:
        x = x.to(device)
        logits, labels = model(augment(x), augment(x))
        loss = F.cross_entropy(logits, labels)
        opt.zero_grad()
        loss.backward()
        opt.step()
        total += loss.item()
        top1 += (logits.argmax(1) == labels).sum().item()
print("moco", repr(total), top1, model.queue_ptr.item(), model.queue.sum().item())

# a queue kept at top level with a Python int pointer
queue = torch.zeros(K, dim)
ptr = 0
for x in data:
    with torch.no_grad():
        keys = F.normalize(model.encoder_k(x.to(device)), dim=1)
    queue[ptr:ptr + bs] = keys
    ptr = (ptr + bs) % K
print("queue", queue.abs().sum().item(), ptr)

# InfoNCE labels built per step with a constant batch size, then shifted in place for a 2N SimCLR layout
sim_total = 0.0
for x in data:
    z = F.normalize(model.encoder_q(torch.cat([augment(x), augment(x)]).to(device)), dim=1)
    sim = z @ z.T / tau
    mask = torch.eye(2 * bs, dtype=torch.bool, device=device)
    sim = sim.masked_fill(mask, float("-inf"))
    targets = torch.arange(2 * bs, device=device)
    targets[:bs] += bs
    targets[bs:] -= bs
    loss = F.cross_entropy(sim, targets)
    opt.zero_grad()
    loss.backward()
    opt.step()
    sim_total += loss.item()
print("simclr", repr(sim_total))

# BYOL: an online network with a predictor, a target network updated by EMA
online = nn.Sequential(nn.Linear(6, 16), nn.ReLU(), nn.Linear(16, dim)).to(device)
predictor = nn.Linear(dim, dim).to(device)
target = copy.deepcopy(online).requires_grad_(False)
bopt = torch.optim.Adam(list(online.parameters()) + list(predictor.parameters()), lr=1e-2)
byol = []
for x in data:
    x = x.to(device)
    v1, v2 = augment(x), augment(x)
    p1 = F.normalize(predictor(online(v1)), dim=-1)
    with torch.no_grad():
        t2 = F.normalize(target(v2), dim=-1)
    loss = 2 - 2 * (p1 * t2).sum(-1).mean()
    bopt.zero_grad()
    loss.backward()
    bopt.step()
    with torch.no_grad():
        for po, pt in zip(online.parameters(), target.parameters()):
            pt.mul_(0.99).add_(po, alpha=0.01)
    byol.append(loss.item())
print("byol", sum(byol))

# kNN monitor: a memory bank of features, labels scattered into one-hot votes
bank = torch.cat([F.normalize(model.encoder_k(x.to(device)), dim=1) for x in data]).detach()
bank_labels = torch.arange(bank.size(0), device=device) % 3
correct = 0
for i, x in enumerate(data):
    f = F.normalize(model.encoder_q(x.to(device)), dim=1)
    sim = f @ bank.T
    w, idx = sim.topk(5, dim=1)
    votes = torch.zeros(bs, 3, device=device)
    votes.scatter_add_(1, bank_labels[idx], (w / 0.1).exp())
    pred = votes.argmax(1)
    correct += (pred == torch.arange(i * bs, (i + 1) * bs, device=device) % 3).sum().item()
print("knn", correct)
