# corpus: runnable
# Red team 32a, wave 1 (blind): a multi-objective model (regression + auxiliary sparsity term)
# trained with one step per epoch over the whole data set, fed in chunks. The two epoch sums are
# back-propagated one after the other (`for term in (...): term.backward(retain_graph=True)`: they
# share the hidden layer's graph).
import argparse

import torch
import torch.nn.functional as F
from torch import nn

torch.set_num_threads(1)


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--epochs", type=int, default=6)
    p.add_argument("--chunk", type=int, default=40)
    p.add_argument("--l1", type=float, default=0.05)
    p.add_argument("--seed", type=int, default=0)
    args = p.parse_args()
    torch.manual_seed(args.seed)
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    x = torch.randn(160, 12)
    y = x[:, :3] @ torch.tensor([[1.0], [-2.0], [0.5]]) + 0.1 * torch.randn(160, 1)
    model = nn.Sequential(nn.Linear(12, 16), nn.ReLU(), nn.Linear(16, 1)).to(device)
    opt = torch.optim.SGD(model.parameters(), lr=0.05)
    for epoch in range(args.epochs):
        opt.zero_grad()
        mse_sum = 0
        act_l1 = 0
        for i in range(0, len(x), args.chunk):
            xb, yb = x[i:i + args.chunk].to(device), y[i:i + args.chunk].to(device)
            h = model[1](model[0](xb))
            pred = model[2](h)
            mse_sum += F.mse_loss(pred, yb, reduction="sum")
            act_l1 += h.abs().sum()
        for term in (mse_sum / len(x), args.l1 * act_l1 / len(x)):
            term.backward(retain_graph=True)
        opt.step()
        print(f"epoch {epoch} mse {mse_sum.item() / len(x):.6f} act {act_l1.item() / len(x):.6f}")
    print("w0", [round(v, 5) for v in model[0].weight.flatten().tolist()[:6]])


if __name__ == "__main__":
    main()
