# corpus: runnable
# Red team 55 (blind): node classification with two-hop neighbour sampling written in Python loops, node
# features and labels kept in a dict of lists (as read from a JSON export), mean aggregation by scatter_add_,
# and two rounds of self-training that write confident pseudo-labels back into the label list.
import random

import torch
import torch.nn.functional as F

from graph import build, sample_block
from model import SAGE

torch.manual_seed(5507)
torch.set_num_threads(1)
device = 'cuda' if torch.cuda.is_available() else 'cpu'
rnd = random.Random(557)

N, K = 90, 3
adj, data = build(N, K, 5570)
labelled = set(range(0, N, 4))
test_nodes = [v for v in range(N) if v % 4 == 2]
model = SAGE(5, 16, K).to(device)
opt = torch.optim.Adam(model.parameters(), lr=0.02)


def blocks_for(seeds):
    n1_nodes, s1, d1 = sample_block(adj, seeds, 4, rnd)
    n2_nodes, s2, d2 = sample_block(adj, n1_nodes, 3, rnd)
    x = torch.tensor([data['x'][v] for v in n2_nodes], device=device)
    w = torch.tensor([data['w'][v] for v in n2_nodes], device=device)
    blocks = ((torch.tensor(s2, device=device), torch.tensor(d2, device=device), len(n1_nodes)),
              (torch.tensor(s1, device=device), torch.tensor(d1, device=device), len(seeds)))
    return x, blocks, w.float()


losses, rounds = [], []
for rnd_i in range(3):
    train_nodes = sorted(labelled)
    for epoch in range(10):
        rnd.shuffle(train_nodes)
        for s in range(0, len(train_nodes), 12):
            seeds = train_nodes[s:s + 12]
            x, blocks, w = blocks_for(seeds)
            y = torch.tensor(data['y'][0:N], device=device)[torch.tensor(seeds, device=device)]
            loss = F.cross_entropy(model(x, blocks, w), y)
            opt.zero_grad()
            loss.backward()
            opt.step()
            losses.append(loss.item())
    # self-training: confident predictions become labels for the next round
    model.eval()
    added = 0
    with torch.no_grad():
        pool = [v for v in range(N) if v not in labelled and v not in test_nodes]
        for s in range(0, len(pool), 16):
            seeds = pool[s:s + 16]
            x, blocks, w = blocks_for(seeds)
            prob = model(x, blocks, w).softmax(1)
            conf, pred = prob.max(1)
            for v, c, p in zip(seeds, conf.tolist(), pred.tolist()):
                if c > 0.9:
                    data['y'][v] = p
                    data['w'][v] = round(c, 3)
                    labelled.add(v)
                    added += 1
    model.train()
    rounds.append(added)

model.eval()
correct = 0
with torch.no_grad():
    for s in range(0, len(test_nodes), 16):
        seeds = test_nodes[s:s + 16]
        x, blocks, w = blocks_for(seeds)
        pred = model(x, blocks, w).argmax(1)
        truth = torch.tensor([v % K for v in seeds], device=device)
        correct += (pred == truth).sum().item()
acc = correct / len(test_nodes)
w_all = torch.tensor(data['w'])
print('losses', [round(v, 5) for v in losses[:4]], round(sum(losses), 5), len(losses))
print('added per round', rounds, 'labelled', len(labelled))
print('acc', round(acc, 5), 'weights', w_all.dtype, round(w_all.sum().item(), 4))
print('checksum', round(sum(losses) + acc + sum(rounds) + w_all.sum().item(), 6))
