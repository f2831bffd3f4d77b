import torch

from data import sample_triples


def train_epoch(model, optimizer, train_dict, n_items, device, batch_size=64):
    model.train()
    users, pos, neg = sample_triples(train_dict, n_items)
    users = torch.tensor(users, device=device)
    pos = torch.tensor(pos, device=device)
    neg = torch.tensor(neg, device=device)
    perm = torch.randperm(len(users), device=device)
    total = 0.0
    for b in range(0, len(perm), batch_size):
        idx = perm[b:b + batch_size]
        loss = model(users[idx], pos[idx], neg[idx])
        reg = 1e-4 * (model.user(users[idx]).pow(2).sum() + model.item(pos[idx]).pow(2).sum())
        optimizer.zero_grad()
        (loss + reg).backward()
        optimizer.step()
        total += loss.item() * len(idx)  # paef: expect host-sync
    return total / len(users)
