# corpus: runnable
# Red team 50 probe (NOT blind, written after first contact): scientific-style code that sets float64 as the
# default dtype in main.py and hands its model to helpers in scoring.py that collect `.item()`s and call
# `torch.tensor(list)` (which then builds float64).
import torch
import torch.nn as nn

from scoring import grad_norms, score_tasks

torch.set_default_dtype(torch.float64)
torch.manual_seed(5055)
torch.set_num_threads(1)
device = 'cuda' if torch.cuda.is_available() else 'cpu'

model = nn.Sequential(nn.Linear(3, 5), nn.Tanh(), nn.Linear(5, 1)).to(device)
tasks = []
for k in range(4):
    x = torch.randn(10, 3)
    tasks.append((x, torch.sin(x.sum(1, keepdim=True) * (k + 1) / 3)))
with torch.no_grad():
    scores = score_tasks(model, tasks, device)
norms = grad_norms(model, tasks, device)
print('scores', scores.dtype, [repr(v) for v in scores.tolist()])
print('norms', norms.dtype, [repr(v) for v in norms.tolist()])
