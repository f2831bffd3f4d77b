# corpus: runnable
"""Deep knowledge tracing on simulated student logs, laid out as a small project: a data
module (dict-of-lists logs, a one-hot Dataset), a model module, and a utils module (device
moves, masking, a rank AUC, a running mean); argparse options; AUC on held-out students."""
import argparse

import numpy as np
import torch
import torch.nn.functional as F

from data import make_loader, simulate_logs
from model import DKT
from utils import RunningMean, auc_score, batch_to, masked_predictions


def train_epoch(model, loader, optimizer, device):
    model.train()
    meter = RunningMean()
    for batch in loader:
        x, target_skill, target = batch_to(batch, device)
        pred, y = masked_predictions(model(x), target_skill, target)
        loss = F.binary_cross_entropy_with_logits(pred, y)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        meter.add(loss.item(), y.numel())  # paef: expect host-sync
    return meter.mean()


def evaluate(model, loader, device):
    model.eval()
    scores, labels = [], []
    # An LSTM: under no_grad its inference kernel changes the last bits, so the wrap is for review.
    for batch in loader:  # paef: expect eval-without-no-grad
        x, target_skill, target = batch_to(batch, device)
        pred, y = masked_predictions(model(x), target_skill, target)
        scores.append(torch.sigmoid(pred).detach().cpu().numpy())  # paef: ok host-sync
        labels.append(y.cpu().numpy())  # paef: ok host-sync
    return auc_score(np.concatenate(scores), np.concatenate(labels))


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--skills", type=int, default=8)
    parser.add_argument("--epochs", type=int, default=4)
    parser.add_argument("--batch-size", type=int, default=16)
    args = parser.parse_args()
    torch.manual_seed(0)
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    logs = simulate_logs(200, args.skills, seed=0)
    train_loader = make_loader(logs, list(range(160)), args.skills, args.batch_size, shuffle=True)
    test_loader = make_loader(logs, list(range(160, 200)), args.skills, 40, shuffle=False)
    model = DKT(args.skills).to(device)
    optimizer = torch.optim.Adam(model.parameters(), lr=5e-3)
    for epoch in range(args.epochs):
        loss = train_epoch(model, train_loader, optimizer, device)
        print(f"epoch {epoch} bce {loss:.4f} test auc {evaluate(model, test_loader, device):.4f}")


if __name__ == "__main__":
    main()
