# corpus: runnable
# Red team 32a, wave 1 (blind): a small validation-tracking object (`Tracker.observe`) that keeps
# the running best confidence and the last batch's mean margin as it sees them; the script prints
# the tracker after each validation pass (its `__repr__`).
import argparse

import torch
import torch.nn.functional as F
from torch import nn

torch.set_num_threads(1)


class Tracker:
    def __init__(self):
        self.best_conf = None
        self.last_margin = None
        self.batches = 0

    def observe(self, probs):
        top2 = probs.topk(2, dim=1).values
        conf = top2[:, 0].max()
        self.best_conf = conf if self.best_conf is None else torch.maximum(self.best_conf, conf)
        self.last_margin = (top2[:, 0] - top2[:, 1]).mean()
        self.batches += 1

    def __repr__(self):
        return f"Tracker({self.__dict__})"


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--epochs", type=int, default=2)
    p.add_argument("--bs", type=int, default=32)
    p.add_argument("--seed", type=int, default=0)
    args = p.parse_args()
    torch.manual_seed(args.seed)
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    x = torch.randn(192, 10)
    y = (x[:, :2].sum(1) > 0).long() + (x[:, 2] > 1).long()
    tr, va = torch.utils.data.random_split(torch.utils.data.TensorDataset(x, y), [128, 64],
                                           generator=torch.Generator().manual_seed(0))
    train_loader = torch.utils.data.DataLoader(tr, batch_size=args.bs, shuffle=True)
    val_loader = torch.utils.data.DataLoader(va, batch_size=args.bs)
    model = nn.Sequential(nn.Linear(10, 32), nn.ReLU(), nn.Linear(32, 3)).to(device)
    opt = torch.optim.Adam(model.parameters(), lr=1e-2)
    for epoch in range(args.epochs):
        model.train()
        for xb, yb in train_loader:
            xb, yb = xb.to(device), yb.to(device)
            loss = F.cross_entropy(model(xb), yb)
            opt.zero_grad()
            loss.backward()
            opt.step()
        model.eval()
        tracker = Tracker()
        correct = 0
        for xb, yb in val_loader:
            xb, yb = xb.to(device), yb.to(device)
            probs = model(xb).softmax(dim=1)
            tracker.observe(probs)
            correct += (probs.argmax(1) == yb).sum().item()
        print(f"epoch {epoch} val acc {correct / len(va):.4f}")
        print(tracker)


if __name__ == "__main__":
    main()
