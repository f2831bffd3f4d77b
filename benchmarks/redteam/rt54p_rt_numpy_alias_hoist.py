# corpus: runnable
# Red team 54 probe (not blind): tensors built inside a loop from a NumPy array (or list) that never changes by
# its own name, but changes through a tensor sharing its memory (torch.from_numpy / as_tensor, .numpy()) or
# through a helper given that alias. Hoisting the build out of the loop would freeze the first value.
import numpy as np
import torch

torch.manual_seed(5427)
torch.set_num_threads(1)
device = 'cuda' if torch.cuda.is_available() else 'cpu'


def decay(t):
    t.mul_(0.5)


def run():
    tab = np.ones(3, dtype=np.float32)
    tab_t = torch.from_numpy(tab)
    cnt = np.zeros(2, dtype=np.int64)
    cnt_t = torch.as_tensor(cnt)
    base = torch.zeros(4)
    base_np = base.numpy()
    gain = np.full(2, 2.0, dtype=np.float32)
    gain_t = torch.from_numpy(gain)
    rows = []
    for step in range(4):
        w = torch.tensor(tab, device=device)
        c = torch.tensor(cnt).to(device)
        b = torch.tensor(base_np)
        k = torch.tensor(gain, device=device)
        rows.append([w.sum().item(), c.sum().item(), b.sum().item(), k.sum().item()])
        tab_t.add_(1.0)
        cnt_t[step % 2] += 3
        base[step] = 7.0
        decay(gain_t)
    return rows


rows = run()
for r in rows:
    print(r)
print('checksum', f'{sum(sum(r) for r in rows):.6f}')
