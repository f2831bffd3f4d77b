"""A session-graph recommender whose per-epoch train/test helper lives here; main.py takes it with
`from model import *` (the SR-GNN layout)."""
import numpy as np
import torch
from torch import nn


class SessionScorer(nn.Module):
    def __init__(self, n_items, hidden=16):
        super().__init__()
        self.embedding = nn.Embedding(n_items, hidden)
        self.mix = nn.Linear(hidden, hidden)
        self.loss_function = nn.CrossEntropyLoss()

    def forward(self, items):
        hidden = torch.tanh(self.mix(self.embedding(items)))
        return hidden.mean(1) @ self.embedding.weight.t()


def to_device(x, device):
    return torch.as_tensor(x, dtype=torch.long).to(device)


def train_test(model, optimizer, train_batches, test_batches, device):
    model.train()
    total_loss = 0.0
    for items, targets in train_batches:
        optimizer.zero_grad()
        scores = model(to_device(items, device))
        loss = model.loss_function(scores, to_device(targets, device))
        loss.backward()
        optimizer.step()
        total_loss += loss  # paef: expect-fix graph-retention
    print("\tLoss:\t%.3f" % total_loss)
    model.eval()
    hit = []
    for items, targets in test_batches:  # paef: expect eval-without-no-grad
        scores = model(to_device(items, device))
        top = scores.topk(5)[1].cpu().detach().numpy()  # paef: ok host-sync
        for row, target in zip(top, targets):
            hit.append(np.isin(target, row))
    return float(np.mean(hit)) * 100
