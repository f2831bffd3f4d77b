# corpus: runnable
# Red team 25, wave 2: prototypes (class means of embeddings) computed in a loop that looks like
# evaluation (`model.eval()`, a support set, a helper named like a metric) and then used in a loss
# that back-propagates through them: wrapping that loop in `no_grad` would cut their gradient
import torch
from torch import nn

torch.set_num_threads(1)
torch.manual_seed(2526)
encoder = nn.Sequential(nn.Linear(4, 8), nn.Tanh(), nn.Linear(8, 3))
opt = torch.optim.SGD(encoder.parameters(), lr=0.1)
support = [(torch.randn(5, 4), c) for c in range(3)]
queries = torch.randn(6, 4)
labels = torch.tensor([0, 1, 2, 0, 1, 2])
log = []


def evaluate_prototypes(model, sets):
    model.eval()
    found = {}
    for xs, c in sets:
        found[c] = model(xs).mean(0)
    model.train()
    return found


class Memory:
    def __init__(self):
        self.protos = []


memory = Memory()
for episode in range(3):
    encoder.eval()
    protos = []
    for xs, c in support:
        emb = encoder(xs)
        protos.append(emb.mean(0))
    encoder.train()
    centers = torch.stack(protos)
    dist = torch.cdist(encoder(queries), centers)
    loss = nn.functional.cross_entropy(-dist, labels)
    opt.zero_grad()
    loss.backward()
    opt.step()

    table = evaluate_prototypes(encoder, support)
    dist2 = torch.cdist(encoder(queries), torch.stack([table[c] for c in range(3)]))
    loss2 = nn.functional.cross_entropy(-dist2, labels)
    opt.zero_grad()
    loss2.backward()
    opt.step()

    encoder.eval()
    memory.protos = []
    for xs, c in support:
        memory.protos.append(encoder(xs).mean(0))
    encoder.train()
    dist3 = torch.cdist(encoder(queries), torch.stack(memory.protos))
    loss3 = nn.functional.cross_entropy(-dist3, labels)
    opt.zero_grad()
    loss3.backward()
    opt.step()
    log.append((round(loss.item(), 5), round(loss2.item(), 5), round(loss3.item(), 5)))
print("prototypes", log)
