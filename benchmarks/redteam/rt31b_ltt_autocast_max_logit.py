# corpus: runnable
# Red team 31b, wave 1 (blind): a toy contrastive (InfoNCE) run under mixed precision
# (`torch.autocast`, bfloat16 on the CPU) that monitors the largest raw similarity logit per step,
# the stability signal QK-norm papers plot, and reports its mean and spread at the end.
import argparse

import torch
import torch.nn.functional as F

torch.set_num_threads(1)
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--steps", type=int, default=40)
    p.add_argument("--dim", type=int, default=32)
    args = p.parse_args()
    torch.manual_seed(0)
    feats = torch.randn(128, 20)
    W = (0.3 * torch.randn(args.dim, 20)).to(device).requires_grad_()
    opt = torch.optim.SGD([W], lr=0.05)
    amp_dtype = torch.bfloat16 if device.type == "cpu" else torch.float16
    max_logits = []
    for step in range(args.steps):
        idx = torch.randint(0, 128, (32,))
        x = feats[idx].to(device)
        view_a = x + 0.1 * torch.randn_like(x)
        view_b = x + 0.1 * torch.randn_like(x)
        with torch.autocast(device_type=device.type, dtype=amp_dtype):
            za = F.linear(view_a, W)
            zb = F.linear(view_b, W)
            sim = za @ zb.T
            loss = F.cross_entropy(sim / 0.5, torch.arange(32, device=device))
        opt.zero_grad()
        loss.backward()
        opt.step()
        max_logits.append(sim.max().item())
    peaks = torch.tensor(max_logits)
    print("peak mean", peaks.mean().item(), "std", peaks.std().item(), "last", peaks[-1].item())
    print("peak sum", peaks.sum().item(), "dtype", peaks.dtype)


if __name__ == "__main__":
    main()
