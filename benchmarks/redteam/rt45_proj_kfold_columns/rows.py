"""Rows of a small regression table, as a CSV loader would hand them back: features, an integer label and
a sample weight that is an int except where a row was down-weighted."""
import random


def make_rows(n, seed=3):
    rng = random.Random(seed)
    rows = []
    for i in range(n):
        feat = [round(rng.uniform(-1, 1), 3) for _ in range(3)]
        label = int(feat[0] + feat[1] > 0)
        weight = 0.5 if i == 7 else 1
        rows.append((feat, label, weight))
    return rows
