# corpus: runnable
# Red team 32a, wave 1 (blind): a calibration report after training. The evaluation pass keeps the
# per-batch confidence and accuracy, then summarises them into a dict that is pretty-printed
# (`pprint`), as many notebooks-turned-scripts do.
import argparse
from pprint import pprint

import torch
import torch.nn.functional as F
from torch import nn

torch.set_num_threads(1)


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--epochs", type=int, default=3)
    p.add_argument("--bs", type=int, default=25)
    p.add_argument("--seed", type=int, default=0)
    args = p.parse_args()
    torch.manual_seed(args.seed)
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    x = torch.randn(250, 6)
    y = (x[:, 0] + x[:, 1] * x[:, 2] > 0).long()
    model = nn.Sequential(nn.Linear(6, 20), nn.ReLU(), nn.Linear(20, 2)).to(device)
    opt = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
    for epoch in range(args.epochs):
        model.train()
        for i in range(0, 150, args.bs):
            xb, yb = x[i:i + args.bs].to(device), y[i:i + args.bs].to(device)
            loss = F.cross_entropy(model(xb), yb)
            opt.zero_grad()
            loss.backward()
            opt.step()
    model.eval()
    confs, accs = [], []
    for i in range(150, 250, args.bs):
        xb, yb = x[i:i + args.bs].to(device), y[i:i + args.bs].to(device)
        probs = F.softmax(model(xb), dim=1)
        conf, pred = probs.max(dim=1)
        confs.append(conf.mean())
        accs.append((pred == yb).float().mean())
    mean_conf = torch.stack(confs).mean()
    mean_acc = torch.stack(accs).mean()
    report = {"confidence": mean_conf, "accuracy": mean_acc, "gap": mean_conf - mean_acc, "batches": len(confs)}
    pprint(report)


if __name__ == "__main__":
    main()
