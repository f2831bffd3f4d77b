# corpus: runnable
# Red team 31b, wave 2 (blind): loader settings in a module-level dict that `configure()` completes
# from the command line, including the collate function: it packs each batch into a `Record`
# (fields by name, its own `to(device)`).
import argparse

import torch
import torch.nn.functional as F
from torch import nn
from torch.utils.data import DataLoader, TensorDataset

torch.set_num_threads(1)
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")

LOADER_ARGS = dict(batch_size=16, num_workers=2)


class Record:
    def __init__(self, x, y):
        self.x, self.y = x, y

    def to(self, device):
        return Record(self.x.to(device), self.y.to(device))


def collate_records(samples):
    xs, ys = zip(*samples)
    return Record(torch.stack(xs), torch.stack(ys))


def configure(args):
    LOADER_ARGS.update(batch_size=args.bs, collate_fn=collate_records)


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--bs", type=int, default=20)
    args = p.parse_args()
    configure(args)
    torch.manual_seed(0)
    x = torch.randn(120, 5)
    y = x.sum(1, keepdim=True).tanh()
    loader = DataLoader(TensorDataset(x, y), **LOADER_ARGS)
    model = nn.Linear(5, 1).to(device)
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    for epoch in range(2):
        total = 0.0
        for batch in loader:
            batch = batch.to(device)
            loss = F.mse_loss(model(batch.x), batch.y)
            opt.zero_grad()
            loss.backward()
            opt.step()
            total += loss.item()
        print(f"epoch {epoch} loss {total / len(loader):.6f}")


if __name__ == "__main__":
    main()
