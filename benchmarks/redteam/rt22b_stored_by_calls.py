# corpus: runnable
# Red team 22 (wave 2): views stored into containers by calls (heapq.heappush, operator.setitem, vars(obj)[k] = v,
# list.append unbound, a nested list) and a namedtuple over a from_numpy tensor changed through its field
import heapq, operator, bisect, threading
from concurrent.futures import ThreadPoolExecutor
from collections import namedtuple
import numpy as np
import torch
torch.set_num_threads(1)
torch.manual_seed(22)
pool = ThreadPoolExecutor(max_workers=1)
Stats = namedtuple("Stats", ["mean", "n"])
arr = np.ones(4, dtype=np.float32)
rec = Stats(torch.from_numpy(arr), 1)
t2 = torch.zeros(4)
heap = []
heapq.heappush(heap, (0, t2.numpy()))
h2 = heap[0][1]
t3 = torch.zeros(4)
d3 = {}
operator.setitem(d3, "k", t3.numpy())
h3 = d3["k"]
t4 = torch.zeros(4)
class NS: pass
ns = NS()
vars(ns)["a"] = t4.numpy()
h4 = ns.a
t5 = torch.zeros(4)
l5 = []
list.append(l5, t5.numpy())
h5 = l5[0]
weights = [1.0, 2.0]
stats = np.zeros(3)
t7 = torch.zeros(4)
l7 = [[]]
l7[0].append(t7.numpy())
h7 = l7[0][0]
seen = []
for step in range(3):
    a = np.log1p(arr)
    b = np.sqrt(h2); c = np.sqrt(h3); d = np.sqrt(h4); e = np.sqrt(h5)
    w = torch.tensor(weights)
    s = np.sqrt(stats)
    g = np.sqrt(h7)
    rec.mean.mul_(2.0)
    for t in (t2, t3, t4, t5, t7):
        t.add_(1.0)
    pool.submit(weights.append, 5.0).result()
    th = threading.Thread(target=stats.fill, args=(float(step + 1),)); th.start(); th.join()
    seen.append([round(float(v.sum()), 4) for v in (a, b, c, d, e, w, s, g)])
print(seen)
