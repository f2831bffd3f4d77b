# corpus: runnable
"""Federated averaging over simulated clients with non-IID label skew: each round a subset of
clients copies the global model, trains locally for a few epochs on its own loader, and the
server averages the returned state_dicts weighted by client size; the global model is scored
on a held-out set after each round."""
import copy
import random

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset

random.seed(0)
torch.manual_seed(0)
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
N_CLIENTS, PER_ROUND, LOCAL_EPOCHS = 6, 3, 2

W_true = torch.randn(12, 4)
X = torch.randn(900, 12)
Y = (X @ W_true).argmax(1)
order = Y.argsort()
shards = order[:720].view(N_CLIENTS, -1)
client_data = [TensorDataset(X[s], Y[s]) for s in shards]
test_loader = DataLoader(TensorDataset(X[720:], Y[720:]), batch_size=90)  # paef: ok pageable-transfer


def client_update(global_model, dataset):
    model = copy.deepcopy(global_model)
    model.train()
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    loader = DataLoader(dataset, batch_size=20, shuffle=True)  # paef: ok pageable-transfer
    for _ in range(LOCAL_EPOCHS):
        for x, y in loader:
            x, y = x.to(device), y.to(device)
            loss = F.cross_entropy(model(x), y)
            opt.zero_grad()
            loss.backward()
            opt.step()
    return model.state_dict(), len(dataset)


def average(states, sizes):
    total = sum(sizes)
    avg = copy.deepcopy(states[0])
    for k in avg:
        avg[k] = sum(sd[k] * (n / total) for sd, n in zip(states, sizes))
    return avg


def evaluate(model):
    model.eval()
    correct = 0
    for x, y in test_loader:  # paef: expect-fix eval-without-no-grad
        x, y = x.to(device), y.to(device)
        correct += (model(x).argmax(1) == y).sum().item()  # paef: ok host-sync
    return correct / len(test_loader.dataset)


global_model = nn.Sequential(nn.Linear(12, 32), nn.ReLU(), nn.Linear(32, 4)).to(device)
for rnd in range(4):
    chosen = random.sample(range(N_CLIENTS), PER_ROUND)
    results = [client_update(global_model, client_data[c]) for c in chosen]
    global_model.load_state_dict(average([r[0] for r in results], [r[1] for r in results]))
    print(f"round {rnd} clients {chosen} test acc {evaluate(global_model):.3f}")
