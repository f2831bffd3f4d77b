# corpus: runnable
# Red team 49 probe (NOT blind, written after first contact): an evaluation pass before training fills a hand-written dict memo of backbone features; training reads the memo and back-propagates into the backbone.
import functools

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(4910)
torch.set_num_threads(1)
device = 'cuda' if torch.cuda.is_available() else 'cpu'

g = torch.Generator().manual_seed(21)
X = torch.randn(40, 6, generator=g)
Y = (X[:, 0] - X[:, 3] > 0).long()
batches = [(X[i:i + 8], Y[i:i + 8]) for i in range(0, 40, 8)]

backbone = nn.Sequential(nn.Linear(6, 12), nn.Tanh()).to(device)
head = nn.Linear(12, 2).to(device)
opt = torch.optim.SGD(list(backbone.parameters()) + list(head.parameters()), lr=0.3)


FEATURES = {}


def features(index):
    if index not in FEATURES:
        x, _ = batches[index]
        FEATURES[index] = backbone(x.to(device))
    return FEATURES[index]


def sanity_check():
    correct = 0
    for index in range(len(batches)):
        logits = head(features(index))
        correct += (logits.argmax(1) == batches[index][1].to(device)).sum().item()
    return correct


print('sanity', sanity_check())
for index, (_, y) in enumerate(batches):
    loss = F.cross_entropy(head(features(index)), y.to(device))
    opt.zero_grad()
    loss.backward()
    opt.step()
    print('train', index, f'{loss.item():.8f}')
print('backbone', f'{backbone[0].weight.sum().item():.8f}', 'head', f'{head.weight.sum().item():.8f}')
