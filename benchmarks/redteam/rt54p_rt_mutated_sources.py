# corpus: runnable
# Red team 54 probe (not blind): tensors built inside a loop from a NumPy array or Python list that the loop
# changes in place in ways that are not an assignment to the name: np.add.at, a ufunc out=, a slice view's +=,
# ndarray.sort(), np.random.shuffle, list.sort(), random.shuffle, a helper. torch.as_tensor / from_numpy of a CPU
# array share its memory on the CPU but copy it to a device, so a hoist that looks safe on the CPU differs on CUDA.
import random

import numpy as np
import torch

torch.manual_seed(5423)
torch.set_num_threads(1)
np.random.seed(5423)
random.seed(5423)
device = 'cuda' if torch.cuda.is_available() else 'cpu'


def bump(arr):
    arr[0] += 1.0


def run():
    hits = np.zeros(4, dtype=np.float32)
    scale = np.ones(4, dtype=np.float32)
    tail = np.arange(4, dtype=np.float32)
    perm = np.arange(6)
    prio = [3.0, 1.0, 2.0]
    order = [0, 1, 2, 3]
    ticks = np.zeros(2, dtype=np.float32)
    acc = []
    for step in range(5):
        a = torch.as_tensor(hits, device=device)
        b = torch.from_numpy(scale).to(device)
        c = torch.tensor(tail)
        d = torch.as_tensor(perm)
        e = torch.tensor(prio, device=device)
        f = torch.tensor(order)
        h = torch.as_tensor(ticks).to(device)
        acc.append([a.sum().item(), b.sum().item(), c.sum().item(), d[0].item(), e[0].item(), f[0].item(), h.sum().item()])
        np.add.at(hits, [step % 4], 1.0)
        np.multiply(scale, 1.5, out=scale)
        v = tail[1:]
        v += 2.0
        np.random.shuffle(perm)
        prio.sort()
        random.shuffle(order)
        bump(ticks)
    return acc


acc = run()
for row in acc:
    print(row)
print('checksum', f'{sum(sum(r) for r in acc):.6f}')
