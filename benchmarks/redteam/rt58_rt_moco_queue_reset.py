# corpus: runnable
# Red team 58 (blind): a MoCo-style contrastive learner on made-up sequences of 16 features (two noisy views of
# each sample). The key encoder is a momentum copy of the query encoder (updated in place every step). Negative
# keys live in a queue written at a pointer; the queue is refilled with random keys at the start of each epoch
# (a "fresh negatives per epoch" choice), the pointer is a one-element tensor advanced by a helper. The positive
# index is always 0, a mask of seen queue slots is rebuilt per epoch and marked as slots are written.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(5803)
torch.set_num_threads(1)
device = 'cuda' if torch.cuda.is_available() else 'cpu'

N, D, E, K, B = 256, 16, 8, 384, 32
base = torch.randn(N, D)


def views(idx):
    x = base[idx]
    return x + 0.3 * torch.randn_like(x), x + 0.3 * torch.randn_like(x)


def encoder():
    return nn.Sequential(nn.Linear(D, 32), nn.ReLU(), nn.Linear(32, E)).to(device)


q_enc, k_enc = encoder(), encoder()
k_enc.load_state_dict(q_enc.state_dict())
for p in k_enc.parameters():
    p.requires_grad_(False)
opt = torch.optim.SGD(q_enc.parameters(), lr=0.05, momentum=0.9)
m, temp = 0.9, 0.2


def enqueue(queue, ptr, seen, keys):
    start = int(ptr[0])
    queue[start:start + keys.shape[0]] = keys
    seen[start:start + keys.shape[0]] = True
    ptr[0] = (start + keys.shape[0]) % queue.shape[0]


losses, fill = [], []
for epoch in range(4):
    queue = F.normalize(torch.randn(K, E), dim=1).to(device)
    ptr = torch.zeros(1, dtype=torch.long)
    seen = torch.zeros(K, dtype=torch.bool, device=device)
    perm = torch.randperm(N)
    for b in range(0, N, B):
        idx = perm[b:b + B]
        xq, xk = views(idx)
        xq, xk = xq.to(device), xk.to(device)
        q = F.normalize(q_enc(xq), dim=1)
        with torch.no_grad():
            for pk, pq in zip(k_enc.parameters(), q_enc.parameters()):
                pk.mul_(m).add_(pq.detach(), alpha=1 - m)
            k = F.normalize(k_enc(xk), dim=1)
        l_pos = (q * k).sum(1, keepdim=True)
        l_neg = q @ queue.t()
        logits = torch.cat([l_pos, l_neg], dim=1) / temp
        labels = torch.zeros(logits.shape[0], dtype=torch.long, device=device)
        loss = F.cross_entropy(logits, labels)
        opt.zero_grad()
        loss.backward()
        opt.step()
        enqueue(queue, ptr, seen, k)
        losses.append(loss.item())
    fill.append(int(seen.sum()))

print('loss', [round(l, 4) for l in losses[::8]])
print('filled', fill, 'ptr', int(ptr[0]))
print('checksum', round(queue.double().sum().item(), 6), round(sum(p.double().sum().item() for p in k_enc.parameters()), 6))
