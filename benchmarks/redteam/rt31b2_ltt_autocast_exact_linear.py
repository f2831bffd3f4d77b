# corpus: runnable
# Red team 31b, wave 2 (blind): a linear probe trained under bfloat16 autocast (the usual CPU
# mixed-precision setting). The weights are made directly on the device with `requires_grad=True`;
# each step records the largest logit, and the run reports their mean, spread and running maximum.
import argparse

import torch
import torch.nn.functional as F

torch.set_num_threads(1)
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--steps", type=int, default=40)
    args = p.parse_args()
    torch.manual_seed(0)
    feats = torch.randn(256, 20, device=device)
    labels = (feats[:, :4].sum(1) > 0).long() + (feats[:, 4] > 0.5).long()
    W = torch.randn(3, 20, device=device, requires_grad=True)
    opt = torch.optim.SGD([W], lr=0.05)
    top = []
    for step in range(args.steps):
        idx = torch.randint(0, 256, (32,), device=device)
        xb = feats[idx]
        with torch.autocast(device_type=device.type, dtype=torch.bfloat16):
            logits = F.linear(xb, W)
        loss = F.cross_entropy(logits.float(), labels[idx])
        opt.zero_grad()
        loss.backward()
        opt.step()
        top.append(logits.max().item())
    top_t = torch.tensor(top)
    print("mean", top_t.mean().item(), "std", top_t.std().item())
    print("running max", top_t.cummax(0).values[-5:].tolist(), top_t.dtype)


if __name__ == "__main__":
    main()
