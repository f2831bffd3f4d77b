"""Session data as read from a click log: a dict of Python lists, and a batch builder."""
import random

import torch


def load_sessions(n_sessions, n_items, max_len, seed=0):
    rng = random.Random(seed)
    data = {"items": [], "lengths": [], "targets": []}
    for _ in range(n_sessions):
        k = rng.randint(1, max_len)
        seq = [rng.randrange(1, n_items) for _ in range(k)]
        data["items"].append(seq + [0] * (max_len - k))
        data["lengths"].append(k)
        data["targets"].append(rng.randrange(1, n_items))
    return data


def make_batch(data, index, device):
    items = torch.tensor([data["items"][i] for i in index]).to(device)  # paef: expect dict-as-list; ok cpu-then-move
    lengths = torch.tensor([data["lengths"][i] for i in index], device=device)  # paef: expect dict-as-list
    targets = torch.tensor([data["targets"][i] for i in index], device=device)  # paef: expect dict-as-list
    return items, lengths, targets
