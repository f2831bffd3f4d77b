# corpus: runnable
# Random and computed tensors built on the host and moved: on a GPU, `device=` draws from the
# device's generator (other numbers, and the host stream is no longer advanced) and
# `linspace`/`arange` with float steps are computed by another kernel. On this CPU host the
# outputs are identical; the rewrite is read by eye.
import numpy as np
import torch

torch.manual_seed(0)
torch.set_num_threads(1)
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")

noise = torch.randn(4).to(device)
ids = torch.randint(0, 10, (4,)).to(device)
perm = torch.randperm(5).to(device)
u = torch.rand(3).to(device)
after = torch.randn(2)
print([round(v, 5) for v in noise.tolist()], ids.tolist(), perm.tolist(), [round(v, 5) for v in u.tolist()])
print("host stream", [round(v, 5) for v in after.tolist()])

grid = torch.linspace(-1, 1, 7).to(device)
ramp = torch.arange(0, 1, 0.1).to(device)
print([round(v, 6) for v in grid.tolist()], len(ramp))

arr = np.arange(4, dtype=np.float32)
shared = torch.as_tensor(arr).to(device)
arr += 1
print("shared", shared.tolist())
own = torch.from_numpy(arr).float().to(device)
arr += 1
print("from_numpy", own.tolist())
