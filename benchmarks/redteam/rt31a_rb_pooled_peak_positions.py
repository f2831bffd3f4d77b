# corpus: runnable
# Red team 31a, wave 1 (blind): online learning from a stream of 1-d signals. Each signal is
# summarised by the positions of its local peaks (max pooling with `return_indices=True` gives the
# argmax of each window); the positions and the label are kept in a rehearsal buffer as Python
# lists and sampled into tensors every step; the model embeds the peak positions.
import argparse
import random

import torch
import torch.nn.functional as F
from torch import nn

torch.set_num_threads(1)
LENGTH, WINDOW = 32, 4


class PeakNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.pos = nn.Embedding(LENGTH, 8)
        self.head = nn.Linear(8 * (LENGTH // WINDOW), 2)

    def forward(self, peaks):
        return self.head(self.pos(peaks).flatten(1))


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--steps", type=int, default=100)
    p.add_argument("--bs", type=int, default=12)
    p.add_argument("--seed", type=int, default=0)
    args = p.parse_args()
    random.seed(args.seed)
    torch.manual_seed(args.seed)
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    model = PeakNet().to(device)
    opt = torch.optim.Adam(model.parameters(), lr=0.01)
    peak_buf, label_buf = [], []
    losses = []
    for t in range(args.steps):
        freq = random.choice([1.0, 3.0])
        grid = torch.arange(LENGTH, dtype=torch.float32)
        sig = torch.sin(grid * freq * 6.2832 / LENGTH) + 0.3 * torch.randn(LENGTH)
        peaks = F.max_pool1d(sig[None, None], WINDOW, return_indices=True)[1][0, 0]
        label = torch.tensor(int(freq > 2.0))
        peak_buf.append(peaks.tolist())
        label_buf.append(label.tolist())
        if len(peak_buf) < args.bs:
            continue
        rows = random.sample(range(len(peak_buf)), args.bs)
        pb = torch.tensor([peak_buf[i] for i in rows], device=device)
        lb = torch.tensor([label_buf[i] for i in rows], device=device)
        loss = F.cross_entropy(model(pb), lb)
        opt.zero_grad()
        loss.backward()
        opt.step()
        losses.append(loss.item())
    print(f"peaks dtype {pb.dtype} mean loss {sum(losses) / len(losses):.6f} last {losses[-1]:.6f}")


if __name__ == "__main__":
    main()
