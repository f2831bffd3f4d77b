# corpus: runnable
# Red team 31b, wave 1 (blind): a one-layer attention regressor trained under a mixed-precision
# context built once (`amp = torch.autocast(...)`, reused every step). The loop records the largest
# attention score of each step and summarises the record with the mean and the last-10 average.
import argparse

import torch
import torch.nn.functional as F

torch.set_num_threads(1)
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--steps", type=int, default=30)
    args = p.parse_args()
    torch.manual_seed(0)
    Wq = (0.4 * torch.randn(16, 16)).to(device).requires_grad_()
    Wk = (0.4 * torch.randn(16, 16)).to(device).requires_grad_()
    Wo = (0.2 * torch.randn(16, 1)).to(device).requires_grad_()
    opt = torch.optim.Adam([Wq, Wk, Wo], lr=0.01)
    amp = torch.autocast(device_type=device.type, dtype=torch.bfloat16)
    peaks = []
    for step in range(args.steps):
        x = torch.randn(8, 12, 16).to(device)
        target = x.mean(dim=(1, 2))
        with amp:
            q = torch.matmul(x, Wq)
            k = torch.matmul(x, Wk)
            scores = torch.bmm(q, k.transpose(1, 2))
            attn = scores.softmax(-1)
            pred = torch.matmul(torch.bmm(attn, x).mean(1), Wo).squeeze(1)
        loss = F.mse_loss(pred.float(), target)
        opt.zero_grad()
        loss.backward()
        opt.step()
        peaks.append(scores.amax().item())
    record = torch.tensor(peaks)
    print("mean peak", record.mean().item(), "last10", record[-10:].mean().item())
    print("cumulative", record.cumsum(0)[-1].item(), record.dtype)


if __name__ == "__main__":
    main()
