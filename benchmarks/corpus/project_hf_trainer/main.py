# corpus: runnable
"""Fine-tune a tiny bag-of-embeddings classifier with a Trainer-style loop."""
import argparse

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset

from trainer import evaluate, train_epoch
from utils import set_seed


class BagClassifier(nn.Module):
    def __init__(self, vocab, n_labels):
        super().__init__()
        self.emb = nn.EmbeddingBag(vocab, 16)
        self.cls = nn.Linear(16, n_labels)

    def forward(self, input_ids, labels=None):
        logits = self.cls(self.emb(input_ids))
        out = {"logits": logits}
        if labels is not None:
            out["loss"] = F.cross_entropy(logits, labels)
        return out


def to_dicts(ids, labels):
    return [{"input_ids": i, "labels": l} for i, l in zip(ids, labels)]


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--epochs", type=int, default=3)
    parser.add_argument("--lr", type=float, default=1e-2)
    args = parser.parse_args()
    set_seed(0)
    device = "cuda" if torch.cuda.is_available() else "cpu"
    ids = torch.randint(0, 50, (160, 8))
    labels = (ids[:, 0] > 25).long()
    train_loader = DataLoader(to_dicts(ids[:120], labels[:120]), batch_size=16, shuffle=True)  # paef: ok pageable-transfer
    eval_loader = DataLoader(to_dicts(ids[120:], labels[120:]), batch_size=40)  # paef: ok pageable-transfer
    model = BagClassifier(50, 2).to(device)
    optimizer = torch.optim.AdamW(model.parameters(), lr=args.lr)
    scheduler = torch.optim.lr_scheduler.LinearLR(optimizer, 1.0, 0.1, total_iters=args.epochs * len(train_loader))
    for epoch in range(args.epochs):
        avg = train_epoch(model, train_loader, optimizer, scheduler, device)
        acc = evaluate(model, eval_loader, device)
        print(f"epoch {epoch} loss {avg.item():.4f} acc {acc:.4f}")


if __name__ == "__main__":
    main()
