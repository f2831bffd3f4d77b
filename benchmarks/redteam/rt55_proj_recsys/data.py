"""Synthetic sessions: each user has a bag of past items (variable length) and a held-out next item."""
import random

import torch

N_ITEMS = 50


def make_users(n_users, seed):
    rnd = random.Random(seed)
    users = []
    for u in range(n_users):
        taste = rnd.randrange(5)
        length = rnd.randint(2, 7)
        hist = [taste * 10 + rnd.randrange(10) for _ in range(length)]
        nxt = taste * 10 + rnd.randrange(10)
        users.append({'id': u, 'hist': hist, 'next': nxt, 'taste': taste})
    return users


def collate(batch, n_neg, gen):
    """Flatten the histories for EmbeddingBag, offsets from the lengths; negatives drawn per batch."""
    flat, lengths = [], []
    for rec in batch:
        flat.extend(rec['hist'])
        lengths.append(len(rec['hist']))
    offsets = torch.tensor([0] + lengths[:-1]).cumsum(0)
    pos = torch.tensor([rec['next'] for rec in batch])
    neg = torch.randint(0, N_ITEMS, (len(batch), n_neg), generator=gen)
    return torch.tensor(flat), offsets, pos, neg


def batches(users, size, shuffle_seed):
    order = list(range(len(users)))
    random.Random(shuffle_seed).shuffle(order)
    for s in range(0, len(order), size):
        yield [users[i] for i in order[s:s + size]]
