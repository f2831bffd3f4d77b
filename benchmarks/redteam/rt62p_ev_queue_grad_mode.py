# corpus: runnable
# Red team 62 probe (not blind): evaluation-mode passes around a MoCo-like queue. The key module enqueues what
# it encodes only when autograd is on (the author's way to keep the evaluation code, which runs under
# no_grad, from polluting the queue), so a monitor that forgets no_grad does enqueue; a second helper runs the
# query encoder in eval mode (frozen batch norm) to make a second view's features that the loss differentiates;
# a third fills a feature bank by index in eval mode.
import copy
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(6214)
torch.set_num_threads(1)
device = 'cuda' if torch.cuda.is_available() else 'cpu'

N, D, E, K, BS, TAU = 96, 8, 6, 40, 16, 0.25
data = torch.randn(N, D).to(device)


class KeyEncoder(nn.Module):
    def __init__(self, q, k_size):
        super().__init__()
        self.net = copy.deepcopy(q)
        for p in self.net.parameters():
            p.requires_grad_(False)
        self.register_buffer("queue", F.normalize(torch.randn(k_size, E), dim=1))
        self.ptr = 0

    def forward(self, x):
        k = F.normalize(self.net(x), dim=1).detach()
        if torch.is_grad_enabled():
            n = k.size(0)
            idx = (torch.arange(n, device=k.device) + self.ptr) % self.queue.size(0)
            self.queue[idx] = k
            self.ptr = (self.ptr + n) % self.queue.size(0)
        return k

    @torch.no_grad()
    def follow(self, q, m=0.9):
        for pk, pq in zip(self.net.parameters(), q.parameters()):
            pk.mul_(m).add_(pq, alpha=1 - m)


q_enc = nn.Sequential(nn.Linear(D, 24), nn.BatchNorm1d(24), nn.ReLU(), nn.Linear(24, E)).to(device)
k_enc = KeyEncoder(q_enc, K).to(device)
opt = torch.optim.SGD(q_enc.parameters(), lr=0.05, momentum=0.9)


def aug(x):
    return x + 0.25 * torch.randn_like(x)


def monitor(xs):
    k_enc.eval()
    sims = []
    for i in range(0, len(xs), 32):
        k = k_enc(xs[i:i + 32])
        sims.append((k @ k_enc.queue.T).max(1).values.mean().item())
    k_enc.train()
    return sum(sims) / len(sims)


def frozen_bn_view(x):
    q_enc.eval()
    z = F.normalize(q_enc(aug(x)), dim=1)
    q_enc.train()
    return z


bank = torch.zeros(N, E, device=device)


def fill_bank(xs):
    q_enc.eval()
    for i in range(0, len(xs), 32):
        bank[i:i + 32] = F.normalize(q_enc(xs[i:i + 32]), dim=1)
    q_enc.train()


trace = []
for epoch in range(3):
    perm = torch.randperm(N, device=device)
    for s in range(0, N, BS):
        x = data[perm[s:s + BS]]
        q = F.normalize(q_enc(aug(x)), dim=1)
        q2 = frozen_bn_view(x)
        k = k_enc(aug(x))
        logits = torch.cat([(q * k).sum(1, keepdim=True), q @ k_enc.queue.T], 1) / TAU
        loss = F.cross_entropy(logits, torch.zeros(x.size(0), dtype=torch.long, device=device)) \
            + 0.5 * (1 - (q * q2).sum(1)).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
        k_enc.follow(q_enc)
    trace.append(round(monitor(data), 5))
    fill_bank(data)
    trace.append(round(bank.sum().item(), 4))
    trace.append(k_enc.ptr)

print("trace", trace)
print("checksum", round(sum(trace) + k_enc.queue.sum().item(), 4))
