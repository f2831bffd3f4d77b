# corpus: runnable
# Red team 30a, wave 2 (blind): a toy semantic segmentation project. Label masks are uint8 class maps;
# the training step downsamples them to the logits' resolution with nearest-neighbour `F.interpolate`
# (which keeps uint8) and rebuilds an int64 target from `.tolist()` for `F.cross_entropy`.
import argparse

import torch
import torch.nn.functional as F

from model import TinySeg
from data import make_scenes

torch.set_num_threads(1)
device = "cuda" if torch.cuda.is_available() else "cpu"


def train(args):
    images, masks = make_scenes(48, args.size, args.seed)
    torch.manual_seed(args.seed)
    model = TinySeg(3).to(device)
    opt = torch.optim.Adam(model.parameters(), lr=0.01)
    for epoch in range(args.epochs):
        total = 0.0
        for i in range(0, len(images), args.bs):
            xb = images[i:i + args.bs].to(device)
            mb = masks[i:i + args.bs].to(device)
            logits = model(xb)
            small = F.interpolate(mb[:, None], size=logits.shape[-2:], mode="nearest")[:, 0]
            target = torch.tensor(small.tolist(), device=device)
            loss = F.cross_entropy(logits, target)
            opt.zero_grad()
            loss.backward()
            opt.step()
            total += loss.item()
        print(f"epoch {epoch} loss {total:.5f}")


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--epochs", type=int, default=2)
    p.add_argument("--bs", type=int, default=8)
    p.add_argument("--size", type=int, default=16)
    p.add_argument("--seed", type=int, default=0)
    train(p.parse_args())


if __name__ == "__main__":
    main()
