# corpus: runnable
"""Contextual-bandit recommender: the replay memory is one Python list per field, rows
stored with `.tolist()` and rebuilt into tensors for every update."""
import random

import torch
import torch.nn as nn

random.seed(0)
torch.manual_seed(0)
device = "cuda" if torch.cuda.is_available() else "cpu"
n_users, n_items, dim = 16, 20, 8

user_emb = torch.randn(n_users, dim, device=device)
item_emb = torch.randn(n_items, dim, device=device)
scorer = nn.Sequential(nn.Linear(2 * dim, 32), nn.ReLU(), nn.Linear(32, 1)).to(device)
opt = torch.optim.SGD(scorer.parameters(), lr=0.05)
memory = {"context": [], "reward": []}
for step in range(60):
    users = torch.randint(0, n_users, (n_users,), device=device)
    items = torch.randint(0, n_items, (n_users,), device=device)
    context = torch.cat([user_emb[users], item_emb[items]], dim=1)
    clicked = ((user_emb[users] * item_emb[items]).sum(1) > 0).float()
    for u in range(n_users):
        memory["context"].append(context[u].tolist())  # paef: expect host-sync
    memory["reward"].extend(clicked.tolist())  # paef: ok host-sync
    picks = [random.randrange(len(memory["context"])) for _ in range(32)]
    x = torch.tensor([memory["context"][i] for i in picks], device=device)  # paef: expect-fix record-buffer
    y = torch.tensor([memory["reward"][i] for i in picks], device=device)
    loss = nn.functional.binary_cross_entropy_with_logits(scorer(x).squeeze(1), y)
    opt.zero_grad()
    loss.backward()
    opt.step()
print("final loss", round(loss.item(), 4))
