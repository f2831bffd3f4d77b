# corpus: runnable
# Red team 32a, wave 2 (blind): after evaluation, a small reporting helper (`show_examples`)
# prints the kept examples' logits next to their labels.
import argparse

import torch
import torch.nn.functional as F
from torch import nn

torch.set_num_threads(1)


def show_examples(examples):
    for label, logits in examples:
        print("label", label, "logits", logits)


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--epochs", type=int, default=2)
    p.add_argument("--seed", type=int, default=0)
    args = p.parse_args()
    torch.manual_seed(args.seed)
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    x = torch.randn(100, 6)
    y = (x[:, 2] - x[:, 5] > 0).long()
    model = nn.Sequential(nn.Linear(6, 12), nn.ReLU(), nn.Linear(12, 2)).to(device)
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    for epoch in range(args.epochs):
        model.train()
        for i in range(0, 70, 10):
            xb, yb = x[i:i + 10].to(device), y[i:i + 10].to(device)
            loss = F.cross_entropy(model(xb), yb)
            opt.zero_grad()
            loss.backward()
            opt.step()
    model.eval()
    examples = []
    correct = 0
    for i in range(70, 100, 10):
        xb, yb = x[i:i + 10].to(device), y[i:i + 10].to(device)
        logits = model(xb)
        correct += (logits.argmax(1) == yb).sum().item()
        examples.append((int(yb[0]), logits[0]))
    print("val acc", correct / 30)
    show_examples(examples)


if __name__ == "__main__":
    main()
