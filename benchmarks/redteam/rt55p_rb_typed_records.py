# corpus: runnable
# Red team 55 probe (not blind): a replay memory in the plain shape the record-buffer rule rewrites (one list
# per field, `.append(x.tolist())`, sampled with `torch.tensor([col[i] for i in rows])`), where the recorded
# tensors are int32 actions, float64 rewards and float64 observations: Python lists turn them into int64 and
# float32 when sampled; stacked tensors would keep int32 (gather raises) and float64 (the targets change).
import random

import numpy as np
import torch
import torch.nn as nn

torch.manual_seed(5524)
torch.set_num_threads(1)
device = 'cuda' if torch.cuda.is_available() else 'cpu'
random.seed(5524)
rng = np.random.default_rng(5524)

net = nn.Linear(4, 3).to(device)
opt = torch.optim.SGD(net.parameters(), lr=0.05)
obs_buf, act_buf, rew_buf = [], [], []
losses = []
obs = torch.from_numpy(rng.normal(size=4))
for step in range(120):
    a = torch.tensor([step % 3], dtype=torch.int32)
    r = torch.from_numpy(np.array([obs.sum().item() * 0.1 + (a.item() == 1)], dtype=np.float64))
    obs_buf.append(obs.tolist())
    act_buf.append(a.tolist())
    rew_buf.append(r.tolist())
    obs = torch.from_numpy(rng.normal(size=4))
    if len(obs_buf) >= 16:
        rows = random.sample(range(len(obs_buf)), 8)
        bo = torch.tensor([obs_buf[i] for i in rows], device=device)
        ba = torch.tensor([act_buf[i] for i in rows], device=device)
        br = torch.tensor([rew_buf[i] for i in rows], device=device)
        q = net(bo).gather(1, ba).squeeze(1)
        loss = (q - br.squeeze(1)).pow(2).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
        losses.append(loss.item())

print('losses', [round(v, 6) for v in losses[:4]], round(sum(losses), 6), len(losses))
print('checksum', round(sum(losses) + net.weight.sum().item(), 6))
