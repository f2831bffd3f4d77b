# corpus: runnable
# Tensors built in a loop from arrays that the loop changes through spellings of NumPy writes
# not seen before: `arr.flat[i] = v`, `arr.put`, `np.place`, `arr.itemset`-free `arr.fill`,
# `arr.sort()` of a view, a write through `memoryview(arr)`.
import numpy as np
import torch

torch.set_num_threads(1)
a = np.zeros(4, dtype=np.float32)
b = np.arange(4, dtype=np.float32)
c = np.ones(3, dtype=np.float32)
d = np.array([3.0, 1.0, 2.0, 0.0], dtype=np.float32)
e = np.zeros(2, dtype=np.float64)
mv = memoryview(e)
rows = []
for step in range(3):
    ta = torch.tensor(a)
    tb = torch.tensor(b)
    tc = torch.tensor(c)
    td = torch.tensor(d)
    te = torch.tensor(e)
    a.flat[step] = 5.0
    b.put([0], [step + 10.0])
    np.place(c, c > 0, [step + 2.0])
    d[:].sort()
    mv[0] = float(step + 1)
    rows.append([ta.tolist(), tb.tolist(), tc.tolist(), td.tolist(), te.tolist()])
for r in rows:
    print(r)
