# corpus: runnable
"""Train the session encoder on synthetic sessions; report loss and recall@10 per epoch."""
import argparse
import random

import torch
import torch.nn.functional as F

from data import load_sessions, make_batch
from model import SessionEncoder


def recall_at_k(scores, targets, k=10):
    hits = 0
    topk = scores.topk(k, dim=1).indices
    for row, target in zip(topk, targets):  # paef: expect elementwise-loop
        if target in row:  # paef: ok host-sync
            hits += 1
    return hits / len(targets)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--epochs", type=int, default=3)
    parser.add_argument("--batch-size", type=int, default=50)
    parser.add_argument("--lr", type=float, default=0.01)
    args = parser.parse_args()
    random.seed(0)
    torch.manual_seed(0)
    device = "cuda" if torch.cuda.is_available() else "cpu"
    n_items, max_len = 60, 6
    train = load_sessions(300, n_items, max_len, seed=1)
    test = load_sessions(100, n_items, max_len, seed=2)
    model = SessionEncoder(n_items, 16, max_len).to(device)
    opt = torch.optim.Adam(model.parameters(), lr=args.lr)
    order = list(range(300))
    for epoch in range(args.epochs):
        random.shuffle(order)
        epoch_loss = 0.0
        for b in range(0, len(order), args.batch_size):
            items, lengths, targets = make_batch(train, order[b : b + args.batch_size], device)
            loss = F.cross_entropy(model(items, lengths), targets)
            opt.zero_grad()
            loss.backward()
            opt.step()
            epoch_loss += loss.item()  # paef: expect host-sync
        with torch.no_grad():
            items, lengths, targets = make_batch(test, range(100), device)  # paef: ok dict-as-list
            rec = recall_at_k(model(items, lengths), targets)
        print(f"epoch {epoch} loss {epoch_loss / 6:.4f} recall@10 {rec:.4f}")


if __name__ == "__main__":
    main()
