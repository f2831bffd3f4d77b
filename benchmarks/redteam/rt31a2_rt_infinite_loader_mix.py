# corpus: runnable
# Red team 31a, wave 2 (blind, re-aimed after wave 1): step-based training from an endless loader
# (`batch = next(train_iter)`, the loop of many LLM / diffusion repos). The loader holds the list of
# per-source loss weights it was given and, as it advances, shifts weight from the easy source to
# the hard one; the step builds the weight tensor from the same list.
import torch
import torch.nn.functional as F
from torch import nn

torch.set_num_threads(1)


class EndlessCurriculum:
    def __init__(self, xs, ys, src, mix, bs):
        self.xs, self.ys, self.src, self.mix, self.bs = xs, ys, src, mix, bs

    def __iter__(self):
        k = 0
        while True:
            i = (k * self.bs) % len(self.xs)
            shift = min(0.5, 0.02 * k)
            self.mix[0] = 1.0 - shift
            self.mix[1] = 0.5 + shift
            k += 1
            yield self.xs[i:i + self.bs], self.ys[i:i + self.bs], self.src[i:i + self.bs]


def main():
    torch.manual_seed(0)
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    x = torch.randn(320, 6)
    src = torch.arange(320) % 2
    y = torch.where(src == 1, (x[:, 0] * x[:, 1] > 0).long(), (x[:, 0] > 0).long())
    model = nn.Sequential(nn.Linear(6, 24), nn.ReLU(), nn.Linear(24, 2)).to(device)
    opt = torch.optim.SGD(model.parameters(), lr=0.2)
    mix = [1.0, 0.5]
    train_iter = iter(EndlessCurriculum(x, y, src, mix, 32))
    for step in range(40):
        xb, yb, sb = next(train_iter)
        xb, yb, sb = xb.to(device), yb.to(device), sb.to(device)
        per = F.cross_entropy(model(xb), yb, reduction="none")
        w = torch.tensor(mix, device=device)
        loss = (per * w[sb]).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
        if step % 10 == 9:
            print(f"step {step} loss {loss.item():.6f} mix {[round(m, 4) for m in mix]}")


if __name__ == "__main__":
    main()
