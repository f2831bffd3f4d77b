# corpus: runnable
# Red team 22: a background thread / executor changes what the loop reads, synchronised through a queue
import queue
import threading
from concurrent.futures import ThreadPoolExecutor

import numpy as np
import torch
from torch import nn

torch.set_num_threads(1)
torch.manual_seed(22)
device = "cuda" if torch.cuda.is_available() else "cpu"

weights = [1.0, 2.0, 3.0, 4.0]
stats = np.zeros(4)
table = {"scale": [1.0, 1.0, 1.0, 1.0]}
requests, ready = queue.Queue(), queue.Queue()


def refresher():
    while True:
        k = requests.get()
        if k is None:
            return
        weights[k % 4] += 1.0
        stats[k % 4] += 2.0
        table["scale"][k % 4] *= 3.0
        ready.put(k)


def bump(k):
    weights[(k + 1) % 4] += 10.0
    return k


worker = threading.Thread(target=refresher, daemon=True)
worker.start()
pool = ThreadPoolExecutor(max_workers=1)
model = nn.Linear(4, 1).to(device)
opt = torch.optim.SGD(model.parameters(), lr=0.01)
seen = []
for step in range(4):
    requests.put(step)
    ready.get()
    pool.submit(bump, step).result()
    w = torch.tensor(weights, device=device)
    z = np.sqrt(stats)
    sc = torch.tensor(table["scale"], device=device)
    x = torch.randn(8, 4, device=device)
    loss = (model(x * w).pow(2).mean()) * 1e-3
    opt.zero_grad()
    loss.backward()
    opt.step()
    seen.append((float(w.sum()), float(z.sum()), float(sc.sum())))
requests.put(None)
worker.join()
pool.shutdown()
print("threads", seen)
