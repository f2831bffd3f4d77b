# corpus: runnable
# Red team 54 probe (not blind): tensors rebuilt from .tolist() whose result, or whose source, is then written
# through a NumPy view (a CPU tensor and its .numpy() share memory), a ufunc out=, np.random.shuffle, a dict
# entry. A rewrite that drops the round trip without a clone would let the write reach the other tensor.
import numpy as np
import torch

torch.manual_seed(5420)
torch.set_num_threads(1)
np.random.seed(5420)
device = 'cuda' if torch.cuda.is_available() else 'cpu'


def result_written_via_numpy(src):
    lens = torch.tensor(src.tolist())
    view = lens.numpy()
    view[0] = 99
    return lens, src


def source_written_via_numpy_after(w):
    snap = torch.tensor(w.tolist())
    w_np = w.numpy()
    w_np *= 2.0
    return snap, w


def source_view_made_before(t):
    arr = t.numpy()
    copy = torch.tensor(t.tolist())
    arr += 1
    return copy, t


def result_through_ufunc_out(x):
    r = torch.tensor(x.tolist())
    r_np = r.numpy()
    np.add(r_np, 5, out=r_np)
    return r, x


def result_shuffled(idx):
    order = torch.tensor(idx.tolist())
    np.random.shuffle(order.numpy())
    return order, idx


def result_in_dict(x):
    cache = {}
    cache['k'] = torch.tensor(x.tolist())
    cache['k'] += 1
    return cache['k'], x


def result_round_trip_cpu(x):
    back = torch.tensor(x.cpu().tolist())
    np.negative(back.numpy(), out=back.numpy())
    return back, x


outs = []
outs.append(result_written_via_numpy(torch.randint(0, 9, (5,))))
outs.append(source_written_via_numpy_after(torch.randn(4)))
outs.append(source_view_made_before(torch.arange(6)))
outs.append(result_through_ufunc_out(torch.randint(0, 5, (4,))))
outs.append(result_shuffled(torch.arange(8)))
outs.append(result_in_dict(torch.arange(3)))
outs.append(result_round_trip_cpu(torch.randn(3)))
for a, b in outs:
    print([round(v, 5) for v in a.tolist()], [round(v, 5) for v in b.tolist()])
print('checksum', f'{sum(a.sum().item() + b.sum().item() for a, b in outs):.6f}')
