# corpus: runnable
# Red team 30a, wave 1 (blind): class-balanced cross entropy whose weights are re-estimated during
# training. The weights live in a config dict (`cfg["class_weights"]`, a Python list); the loop reads
# them through a short local name and every few batches raises the weight of the class with the
# worst running recall, writing through the dict.
import argparse

import torch
import torch.nn.functional as F
from torch import nn

torch.set_num_threads(1)


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--epochs", type=int, default=3)
    p.add_argument("--bs", type=int, default=32)
    p.add_argument("--seed", type=int, default=0)
    args = p.parse_args()
    cfg = {"class_weights": [1.0, 1.0, 1.0], "every": 4, "boost": 1.25}
    gen = torch.Generator().manual_seed(args.seed)
    x = torch.randn(384, 5, generator=gen)
    y = torch.where(x[:, 0] > 0.8, 2, (x[:, 1] > 0).long())
    torch.manual_seed(args.seed)
    model = nn.Sequential(nn.Linear(5, 16), nn.ReLU(), nn.Linear(16, 3))
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    cw = cfg["class_weights"]
    hits = torch.zeros(3)
    seen = torch.zeros(3)
    step = 0
    for epoch in range(args.epochs):
        for i in range(0, len(x), args.bs):
            xb, yb = x[i:i + args.bs], y[i:i + args.bs]
            out = model(xb)
            weight = torch.tensor(cw)
            loss = F.cross_entropy(out, yb, weight=weight)
            opt.zero_grad()
            loss.backward()
            opt.step()
            pred = out.argmax(1)
            seen += torch.bincount(yb, minlength=3)
            hits += torch.bincount(yb[pred == yb], minlength=3)
            step += 1
            if step % cfg["every"] == 0:
                worst = int((hits / seen.clamp(min=1)).argmin())
                cfg["class_weights"][worst] *= cfg["boost"]
        print(f"epoch {epoch} loss {loss.item():.5f} weights {[round(w, 4) for w in cw]}")


if __name__ == "__main__":
    main()
