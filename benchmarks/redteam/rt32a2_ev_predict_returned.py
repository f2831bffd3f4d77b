# corpus: runnable
# Red team 32a, wave 2 (blind): a `predict()` helper in the usual style (model.eval(), a loop over
# the loader, `torch.cat` of the softmax outputs) whose caller prints the first predictions.
import argparse

import torch
import torch.nn.functional as F
from torch import nn

torch.set_num_threads(1)


def predict(model, loader, device):
    model.eval()
    outs = []
    for (xb,) in loader:
        outs.append(F.softmax(model(xb.to(device)), dim=1))
    return torch.cat(outs)


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--epochs", type=int, default=3)
    p.add_argument("--seed", type=int, default=0)
    args = p.parse_args()
    torch.manual_seed(args.seed)
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    x = torch.randn(120, 4)
    y = (x[:, 0] * x[:, 1] > 0).long()
    model = nn.Sequential(nn.Linear(4, 16), nn.ReLU(), nn.Linear(16, 2)).to(device)
    opt = torch.optim.Adam(model.parameters(), lr=1e-2)
    for epoch in range(args.epochs):
        model.train()
        for i in range(0, 80, 16):
            xb, yb = x[i:i + 16].to(device), y[i:i + 16].to(device)
            loss = F.cross_entropy(model(xb), yb)
            opt.zero_grad()
            loss.backward()
            opt.step()
    test = torch.utils.data.DataLoader(torch.utils.data.TensorDataset(x[80:]), batch_size=16)
    probs = predict(model, test, device)
    print("first predictions", probs[:3])
    print("accuracy", (probs.argmax(1).cpu() == y[80:]).float().mean().item())


if __name__ == "__main__":
    main()
