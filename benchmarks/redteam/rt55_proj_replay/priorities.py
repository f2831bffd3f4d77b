"""Proportional prioritisation over a Python list (a sum tree is overkill at this size)."""
import random


class Priorities:
    def __init__(self, alpha, seed):
        self.p = []
        self.alpha = alpha
        self.rnd = random.Random(seed)

    def add(self):
        self.p.append(max(self.p, default=1.0))

    def sample(self, k):
        weights = [q ** self.alpha for q in self.p]
        return self.rnd.choices(range(len(self.p)), weights=weights, k=k)

    def update(self, idx, errors):
        for i, e in zip(idx, errors):
            self.p[i] = abs(e) + 1e-3
