# corpus: runnable
# Red team 29a, wave 2 (blind): training from a binary record stream (an in-memory file standing in
# for a socket or a shard). Each step reads the next record into a preallocated NumPy buffer with
# `readinto`, and a byte-level view (`np.frombuffer` of a `bytearray` header) is refilled in place;
# feature statistics are computed with NumPy from those buffers every step.
import argparse
import io

import numpy as np
import torch
from torch import nn

torch.set_num_threads(1)
DIM = 6


def make_stream(n, seed):
    rng = np.random.default_rng(seed)
    return io.BytesIO(rng.standard_normal((n, DIM)).astype(np.float32).tobytes())


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--steps", type=int, default=20)
    args = parser.parse_args([])
    stream = make_stream(args.steps, 12)
    record = np.empty(DIM, dtype=np.float32)
    header = bytearray(4)
    flags = np.frombuffer(header, dtype=np.uint8)
    torch.manual_seed(12)
    model = nn.Linear(DIM, 1)
    opt = torch.optim.SGD(model.parameters(), lr=0.05)
    total = 0.0
    for step in range(args.steps):
        stream.readinto(record)
        header[:] = bytes([step % 2, step % 3, step % 5, 1])
        scale = np.sqrt(np.square(record).mean())
        active = np.count_nonzero(flags)
        x = torch.from_numpy(record / scale)[None]
        target = torch.tensor([[float(active)]])
        loss = nn.functional.mse_loss(model(x), target)
        opt.zero_grad()
        loss.backward()
        opt.step()
        total += loss.item()
    print(f"mean loss {total / args.steps:.5f} last scale {scale:.5f} active {active}")


if __name__ == "__main__":
    main()
