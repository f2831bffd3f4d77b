# corpus: runnable
# Red team 62 (blind): MoCo v2-style training on made-up 10-feature data. Keys come from a momentum copy of the
# query encoder on a shuffled batch; negatives from a queue of K=50 keys with a pointer buffer and wrap-around
# (the loader keeps the 6-sample last batch: 70 = 4*16 + 6). The positive logit is column 0, so the targets are
# zeros of the batch's length. After each epoch the queue is checked for stale keys and a snapshot of the
# negatives is compared across epochs.
import torch
import torch.nn.functional as F

from model import MomentumPair
from keyqueue import KeyQueue

torch.manual_seed(6207)
torch.set_num_threads(1)
device = 'cuda' if torch.cuda.is_available() else 'cpu'

N, D, E, K, BS, TAU = 70, 10, 8, 50, 16, 0.2
base = torch.randn(N, D)
pair = MomentumPair(D, E, m=0.95).to(device)
queue = KeyQueue(E, K).to(device)
opt = torch.optim.SGD(pair.q.parameters(), lr=0.06, momentum=0.9)


def augment(x):
    return x + 0.2 * torch.randn_like(x)


losses, drift, ages = [], [], []
prev = queue.snapshot()
for epoch in range(4):
    perm = torch.randperm(N)
    total = torch.zeros((), device=device)
    for s in range(0, N, BS):
        x = base[perm[s:s + BS]].to(device)
        q = F.normalize(pair.q(augment(x)), dim=1)
        k = pair.keys(augment(x))
        l_pos = (q * k).sum(1, keepdim=True)
        l_neg = q @ queue.keys.clone().detach()
        logits = torch.cat([l_pos, l_neg], dim=1) / TAU
        target = torch.zeros(logits.shape[0], dtype=torch.long).to(device)
        loss = F.cross_entropy(logits, target)
        opt.zero_grad()
        loss.backward()
        opt.step()
        pair.momentum_step()
        queue.push(k)
        total += loss.detach() * x.size(0)
    losses.append(round(total.item() / N, 5))
    snap = queue.snapshot()
    drift.append(round((snap - prev).norm().item(), 4))
    prev = snap
    ages.append(int(queue.age.max()))

print("losses", losses)
print("drift", drift)
print("ages", ages, "ptr", int(queue.ptr))
print("checksum", round(sum(losses) + sum(drift) + sum(ages), 4))
