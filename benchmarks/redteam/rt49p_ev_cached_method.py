# corpus: runnable
# Red team 49 probe (NOT blind, written after first contact): features memoised by `@functools.cache` on a method of a feature-store object, filled by an evaluation pass before training, back-propagated through by training.
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


class Store:
    @functools.cache
    def get(self, index):
        x, _ = batches[index]
        return backbone(x.to(device))


store = Store()
def features(index):
    return store.get(index)


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
