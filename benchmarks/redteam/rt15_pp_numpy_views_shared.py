# corpus: runnable
# Round trips of tensors whose memory is shared with NumPy views taken earlier (`np.asarray(t)`,
# `t.numpy()` kept in a dict, a slice of `.numpy()`), changed in place through those views after
# the copy was made.
import numpy as np
import torch

torch.set_num_threads(1)
a = torch.ones(4)
b = torch.ones(3)
c = torch.arange(6, dtype=torch.float32)
view_a = np.asarray(a)
views = {"b": b.numpy()}
tail = c.numpy()[3:]
snaps = []
for step in range(3):
    sa = torch.tensor(a.tolist())
    sb = torch.tensor(b.tolist())
    sc = torch.tensor(c.tolist())
    view_a += 1
    views["b"][0] *= 2
    np.multiply(tail, 2, out=tail)
    snaps.append((sa.tolist(), sb.tolist(), sc.tolist()))
for s in snaps:
    print(s)
