# corpus: runnable
# Red team 32a, wave 1 (blind): a step budget inside an epoch loop (`--max-steps`, as in many
# fine-tuning scripts). The mean training loss is summed over every step of the run, not reset per
# epoch; once the budget is spent the remaining epochs break out of their loader at once, and the
# script prints the run's mean loss at the end (full precision, as a float).
import argparse

import torch
import torch.nn.functional as F
from torch import nn

torch.set_num_threads(1)


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--epochs", type=int, default=4)
    p.add_argument("--max-steps", type=int, default=9)
    p.add_argument("--bs", type=int, default=32)
    p.add_argument("--seed", type=int, default=0)
    args = p.parse_args()
    torch.manual_seed(args.seed)
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    x = torch.randn(160, 10)
    y = (x[:, 0] - 0.5 * x[:, 3] > 0).long()
    loader = torch.utils.data.DataLoader(torch.utils.data.TensorDataset(x, y), batch_size=args.bs, shuffle=True)
    model = nn.Sequential(nn.Linear(10, 24), nn.Tanh(), nn.Linear(24, 2)).to(device)
    opt = torch.optim.Adam(model.parameters(), lr=3e-3)
    total_loss = 0.0
    step = 0
    for epoch in range(args.epochs):
        model.train()
        for xb, yb in loader:
            if step >= args.max_steps:
                break
            xb, yb = xb.to(device), yb.to(device)
            loss = F.cross_entropy(model(xb), yb)
            opt.zero_grad()
            loss.backward()
            opt.step()
            total_loss += loss.item()
            step += 1
        print("epoch", epoch, "steps so far", step)
    mean = total_loss / step
    print("total loss", total_loss)
    print(f"mean train loss over {step} steps: {mean}")
    print("as key", {round(mean, 12): "mean"})


if __name__ == "__main__":
    main()
