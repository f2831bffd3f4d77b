# corpus: runnable
# Red team 55 (blind): Q-learning on a grid with a replay memory kept as one Python list per field (records
# made with .tolist() of the environment's tensors: int32 actions, float64 rewards and observations),
# proportional prioritised sampling with priorities rewritten from the TD errors each step, and a
# double-DQN target.
import copy

import numpy as np
import torch
import torch.nn.functional as F

from agent import QNet, act
from env import Grid
from priorities import Priorities

torch.manual_seed(5508)
torch.set_num_threads(1)
device = 'cuda' if torch.cuda.is_available() else 'cpu'

env = Grid(558)
q = QNet().to(device)
q_tgt = copy.deepcopy(q)
opt = torch.optim.Adam(q.parameters(), lr=3e-3)
prio = Priorities(0.6, 5580)
gen = torch.Generator().manual_seed(5581)
obs_l, act_l, rew_l, nxt_l, done_l = [], [], [], [], []
returns, td_trace = [], []
step = 0
for ep in range(40):
    obs = env.reset()
    ep_ret = 0.0
    for t in range(30):
        a = act(q, obs, max(0.1, 1 - ep / 25), gen, device)
        nxt, r, done = env.step(int(a))
        obs_l.append(torch.from_numpy(obs).tolist())
        act_l.append(a.tolist())
        rew_l.append(torch.from_numpy(np.array(r)).tolist())
        nxt_l.append(torch.from_numpy(nxt).tolist())
        done_l.append(float(done))
        prio.add()
        ep_ret += float(r)
        obs = nxt
        step += 1
        if len(obs_l) >= 32:
            idx = prio.sample(32)
            bo = torch.tensor([obs_l[i] for i in idx], device=device)
            ba = torch.tensor([act_l[i] for i in idx], device=device)
            br = torch.tensor([rew_l[i] for i in idx], device=device)
            bn = torch.tensor([nxt_l[i] for i in idx], device=device)
            bd = torch.tensor([done_l[i] for i in idx], device=device)
            qa = q(bo).gather(1, ba).squeeze(1)
            with torch.no_grad():
                a2 = q(bn).argmax(1, keepdim=True)
                y = br + 0.95 * (1 - bd) * q_tgt(bn).gather(1, a2).squeeze(1)
            td = qa - y
            loss = F.smooth_l1_loss(qa, y)
            opt.zero_grad()
            loss.backward()
            opt.step()
            prio.update(idx, td.detach().cpu().tolist())
            td_trace.append(td.abs().mean().item())
            if step % 50 == 0:
                q_tgt.load_state_dict(q.state_dict())
        if done:
            break
    returns.append(round(ep_ret, 4))

with torch.no_grad():
    values = q(torch.eye(25, device=device)).max(1).values
print('returns', returns[:8], returns[-8:])
print('td', [round(v, 5) for v in td_trace[:4]], round(sum(td_trace), 5), len(td_trace))
print('values', [round(v, 4) for v in values[:6].tolist()])
print('prio', round(sum(prio.p), 6), 'dtypes', torch.tensor([act_l[0]]).dtype, torch.tensor([rew_l[0]]).dtype)
print('checksum', round(sum(returns) + sum(td_trace) + values.sum().item() + sum(prio.p), 6))
