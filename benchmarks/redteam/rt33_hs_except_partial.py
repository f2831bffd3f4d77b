# corpus: runnable
# Red team 33 (blind): a training run over a stream of batches, one of which arrives malformed
# (wrong feature count). The epoch stops at the bad batch; the handler reports how far it got and
# the partial running loss, rounded.
import argparse

import torch
import torch.nn.functional as F
from torch import nn

torch.set_num_threads(1)


def batches(x, y, bs):
    for i in range(0, len(x), bs):
        xb = x[i:i + bs]
        if i == 3 * bs:
            xb = xb[:, :-1]  # a corrupt shard
        yield xb, y[i:i + bs]


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--bs", type=int, default=16)
    p.add_argument("--seed", type=int, default=0)
    args = p.parse_args()
    torch.manual_seed(args.seed)
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    x = torch.randn(128, 6)
    y = x[:, :2].sum(1, keepdim=True)
    model = nn.Sequential(nn.Linear(6, 16), nn.ReLU(), nn.Linear(16, 1)).to(device)
    opt = torch.optim.SGD(model.parameters(), lr=0.05)
    running, steps = 0.0, 0
    try:
        for xb, yb in batches(x, y, args.bs):
            loss = F.mse_loss(model(xb.to(device)), yb.to(device))
            opt.zero_grad()
            loss.backward()
            opt.step()
            running += loss.item()
            steps += 1
        print(f"epoch done, mean loss {running / steps:.5f}")
    except RuntimeError:
        print("stopped at a malformed batch after", steps, "steps; partial loss", round(running, 5))


if __name__ == "__main__":
    main()
