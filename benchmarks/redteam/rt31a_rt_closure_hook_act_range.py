# corpus: runnable
# Red team 31a, wave 1 (blind): quantisation-aware training with a calibrated activation range. A
# forward hook (a closure of `main`) widens the observed range of the hidden activations on every
# forward; the loop fake-quantises the hidden layer to 4 bits within the range observed so far.
import argparse

import torch
import torch.nn.functional as F
from torch import nn

torch.set_num_threads(1)


def fake_quant(h, lo_hi, levels=15):
    lo, hi = lo_hi[0], lo_hi[1]
    scale = (hi - lo).clamp(min=1e-6) / levels
    q = torch.round((h.clamp(lo, hi) - lo) / scale) * scale + lo
    return h + (q - h).detach()


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--epochs", type=int, default=3)
    p.add_argument("--bs", type=int, default=32)
    p.add_argument("--seed", type=int, default=0)
    args = p.parse_args()
    torch.manual_seed(args.seed)
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    x = torch.randn(256, 8)
    y = (x[:, :4].sum(1) > 0).long()
    body = nn.Sequential(nn.Linear(8, 32), nn.ReLU()).to(device)
    head = nn.Linear(32, 2).to(device)
    opt = torch.optim.SGD([*body.parameters(), *head.parameters()], lr=0.1)
    act_range = [0.0, 0.5]

    def observe(module, inputs, output):
        act_range[0] = min(act_range[0], output.min().item())
        act_range[1] = max(act_range[1], output.max().item())

    body.register_forward_hook(observe)
    for epoch in range(args.epochs):
        correct = 0
        for i in range(0, len(x), args.bs):
            xb, yb = x[i:i + args.bs].to(device), y[i:i + args.bs].to(device)
            h = body(xb)
            bounds = torch.tensor(act_range, device=device)
            out = head(fake_quant(h, bounds))
            loss = F.cross_entropy(out, yb)
            opt.zero_grad()
            loss.backward()
            opt.step()
            correct += (out.argmax(1) == yb).sum().item()
        print(f"epoch {epoch} loss {loss.item():.6f} acc {correct / len(x):.4f} range {[round(v, 5) for v in act_range]}")


if __name__ == "__main__":
    main()
