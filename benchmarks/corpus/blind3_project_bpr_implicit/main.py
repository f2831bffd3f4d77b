# corpus: runnable
"""Implicit-feedback recommender with BPR loss, split like a research repo: data loading
into per-user dicts, a sampler, the model, a training module and a metrics module."""
import random

import numpy as np
import torch

from data import load_interactions
from metrics import evaluate_ranking
from model import BPRMF
from train import train_epoch

random.seed(0)
np.random.seed(0)
torch.manual_seed(0)
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")

n_users, n_items = 40, 60
train_dict, test_dict = load_interactions(n_users, n_items)
model = BPRMF(n_users, n_items, dim=16).to(device)
optimizer = torch.optim.Adam(model.parameters(), lr=2e-2)
for epoch in range(5):
    loss = train_epoch(model, optimizer, train_dict, n_items, device)
    hr, ndcg = evaluate_ranking(model, train_dict, test_dict, n_items, device, k=10)
    print(f"epoch {epoch} loss {loss:.4f} HR@10 {hr:.3f} NDCG@10 {ndcg:.3f}")
