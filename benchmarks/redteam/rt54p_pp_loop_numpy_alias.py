# corpus: runnable
# Red team 54 probe (not blind): per-step snapshots rebuilt from .tolist() inside loops, where the source tensor
# and a NumPy array share memory (torch.from_numpy / as_tensor of an array, .numpy() of a CPU tensor) and the
# loop writes through the OTHER name after the snapshot. Without a clone, a rewrite's snapshot aliases the source.
import numpy as np
import torch

torch.manual_seed(5426)
torch.set_num_threads(1)
np.random.seed(5426)
device = 'cuda' if torch.cuda.is_available() else 'cpu'


def from_numpy_source():
    table = np.ones(4, dtype=np.float32)
    src = torch.from_numpy(table)
    snaps = []
    for step in range(3):
        snap = torch.tensor(src.tolist())
        table += 1.0
        snaps.append(snap)
    return torch.stack(snaps)


def as_tensor_source():
    arr = np.arange(4, dtype=np.int64)
    src = torch.as_tensor(arr)
    snaps = []
    for step in range(3):
        snap = torch.tensor(src.tolist())
        np.multiply(arr, 2, out=arr)
        snaps.append(snap)
    return torch.stack(snaps)


def numpy_view_of_source():
    src = torch.zeros(3)
    view = src.numpy()
    snaps = []
    for step in range(3):
        snap = torch.tensor(src.tolist())
        view[step] = step + 1.0
        snaps.append(snap)
    return torch.stack(snaps)


def result_written_through_numpy():
    src = torch.arange(3)
    outs = []
    for step in range(3):
        r = torch.tensor(src.tolist())
        rn = r.numpy()
        rn[step] = 100
        outs.append(src.sum().item())
    return torch.tensor(outs)


def item_snapshot_numpy():
    table = np.zeros(1, dtype=np.float32)
    src = torch.from_numpy(table).reshape(())
    snaps = []
    for step in range(3):
        snap = torch.tensor(src.item())
        table[0] += 0.5
        snaps.append(snap)
    return torch.stack(snaps)


res = [from_numpy_source(), as_tensor_source(), numpy_view_of_source(), result_written_through_numpy(),
       item_snapshot_numpy()]
for r in res:
    print(r.tolist())
print('checksum', f'{sum(float(r.double().sum()) for r in res):.6f}')
