# corpus: runnable
"""A background thread prefetches batches into a queue while the loop trains; per-sample weights are
built each step and handed to a worker pool that zeroes the dropped samples in place."""
import queue
import threading
from concurrent.futures import ThreadPoolExecutor

import torch
import torch.nn as nn

torch.manual_seed(0)
torch.set_num_threads(1)
device = 'cuda' if torch.cuda.is_available() else 'cpu'

N_STEPS = 10
g = torch.Generator().manual_seed(9)
X = torch.randn(N_STEPS * 8, 4, generator=g)
Y = X @ torch.tensor([[0.5], [-1.0], [2.0], [0.25]]) + 0.1


def producer(q):
    for i in range(N_STEPS):
        q.put((X[i * 8:(i + 1) * 8].clone(), Y[i * 8:(i + 1) * 8].clone()))
    q.put(None)


def drop_(w, step):
    w[step % 8] = 0.0
    w[(3 * step + 1) % 8] = 0.0
    return int((w == 0).sum())


q = queue.Queue(maxsize=3)
t = threading.Thread(target=producer, args=(q,), daemon=True)
t.start()
pool = ThreadPoolExecutor(max_workers=1)
model = nn.Linear(4, 1).to(device)
opt = torch.optim.SGD(model.parameters(), lr=0.05)
step = 0
dropped = []
while True:
    item = q.get()
    if item is None:
        break
    x, y = item
    x, y = x.to(device), y.to(device)
    w = torch.ones(8)
    dropped.append(pool.submit(drop_, w, step).result())
    loss = (w.to(device) * (model(x) - y).pow(2).squeeze(1)).sum() / w.sum().to(device)
    opt.zero_grad()
    loss.backward()
    opt.step()
    print(step, "loss %.10f" % loss.item(), "kept", int(w.sum()))
    step += 1
t.join()
pool.shutdown()
print("dropped per step", dropped)
