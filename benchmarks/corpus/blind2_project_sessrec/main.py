# corpus: runnable
"""Session-based recommendation: a NARM-like model trained from modules for data, model and loops."""
import argparse

import torch
from torch.utils.data import DataLoader

from data import SessionDataset, collate_fn, generate_sessions, seed_everything
from engine import evaluate, train_epoch
from model import NARM


def parse():
    p = argparse.ArgumentParser()
    p.add_argument("--epochs", type=int, default=3)
    p.add_argument("--batch-size", type=int, default=32)
    p.add_argument("--items", type=int, default=40)
    return p.parse_args()


def main():
    args = parse()
    rng = seed_everything(0)
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    train = generate_sessions(400, args.items, rng)
    test = generate_sessions(100, args.items, rng)
    train_loader = DataLoader(SessionDataset(train), batch_size=args.batch_size, shuffle=True, collate_fn=collate_fn)  # paef: ok pageable-transfer; ok sync-dataloader
    test_loader = DataLoader(SessionDataset(test), batch_size=50, collate_fn=collate_fn)  # paef: ok pageable-transfer; ok sync-dataloader
    model = NARM(args.items).to(device)
    optimizer = torch.optim.Adam(model.parameters(), lr=5e-3)
    for epoch in range(args.epochs):
        loss = train_epoch(model, train_loader, optimizer, device)
        recall, mrr = evaluate(model, test_loader, device)
        print(f"epoch {epoch} loss {loss:.4f} recall@5 {recall:.4f} mrr@5 {mrr:.4f}")


if __name__ == "__main__":
    main()
