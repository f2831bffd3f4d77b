# corpus: runnable
# Red team 49 (blind): caches in front of the backbone. Per-batch features are memoised with
# `functools.lru_cache` (keyed by batch index) and class prototypes with `functools.cache` on a method; a
# sanity validation pass runs BEFORE training (as trainers do), filling both caches, and the training
# epoch afterwards reads the same cached tensors and back-propagates through them into the backbone.
import functools

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(4907)
torch.set_num_threads(1)
device = 'cuda' if torch.cuda.is_available() else 'cpu'

g = torch.Generator().manual_seed(21)
X = torch.randn(40, 6, generator=g)
Y = (X[:, 0] - X[:, 3] > 0).long()
batches = [(X[i:i + 8], Y[i:i + 8]) for i in range(0, 40, 8)]

backbone = nn.Sequential(nn.Linear(6, 12), nn.Tanh()).to(device)
head = nn.Linear(12, 2).to(device)
opt = torch.optim.SGD(list(backbone.parameters()) + list(head.parameters()), lr=0.3)


@functools.lru_cache(maxsize=None)
def features(index):
    x, _ = batches[index]
    return backbone(x.to(device))


class Prototypes:
    def __init__(self, anchors):
        self.anchors = anchors

    @functools.cache
    def of(self, cls):
        return backbone(self.anchors[cls].to(device)).mean(0)


protos = Prototypes({0: X[Y == 0][:4], 1: X[Y == 1][:4]})


def sanity_check(n_batches):
    correct = 0
    spread = 0.0
    for index in range(n_batches):
        feats = features(index)
        logits = head(feats)
        correct += (logits.argmax(1) == batches[index][1].to(device)).sum().item()
        spread += (protos.of(0) - protos.of(1)).norm().item()
    return correct, spread


print('sanity', sanity_check(len(batches)))

for index, (_, y) in enumerate(batches):
    feats = features(index)
    logits = head(feats)
    pull = (feats.mean(0) - protos.of(int(y[0]))).pow(2).sum()
    loss = F.cross_entropy(logits, y.to(device)) + 0.1 * pull
    opt.zero_grad()
    loss.backward(retain_graph=True)
    opt.step()
    print('train', index, f'{loss.item():.8f}')

print('backbone', f'{backbone[0].weight.sum().item():.8f}', 'head', f'{head.weight.sum().item():.8f}')
print('grad seen', backbone[0].weight.grad is not None, features.cache_info().hits)
