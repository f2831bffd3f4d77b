import random


def load_interactions(n_users, n_items):
    """Each user likes items from one of four 'genres' (item id modulo 4); one held out."""
    train, test = {}, {}
    for u in range(n_users):
        genre = u % 4
        liked = random.sample([i for i in range(n_items) if i % 4 == genre], 8)
        train[u], test[u] = liked[:-1], liked[-1]
    return train, test


def sample_triples(train_dict, n_items):
    users, pos, neg = [], [], []
    for u, items in train_dict.items():
        for i in items:
            j = random.randrange(n_items)
            while j in items:
                j = random.randrange(n_items)
            users.append(u)
            pos.append(i)
            neg.append(j)
    return users, pos, neg
