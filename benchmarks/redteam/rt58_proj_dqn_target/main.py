# corpus: runnable
# Red team 58 (blind): double DQN on a made-up chain environment. The target network is a deepcopy of the online
# one, re-synced every `sync_every` updates with load_state_dict. In `Agent.learn` the online net is switched to
# eval mode for ONE forward over the current and next states together: the next-state half only picks the
# argmax action, but the current-state half is the Q(s, a) the loss back-propagates. A Python replay buffer of
# tuples is sampled into tensors per batch; actions are read back with .item(); episode returns are summed on
# the host, and the greedy Q table is printed at the end.
import random

import torch

from agent import Agent, Replay
from env import Chain

torch.manual_seed(5808)
torch.set_num_threads(1)
device = 'cuda' if torch.cuda.is_available() else 'cpu'

env = Chain(58)
agent = Agent(Chain.n_states, Chain.n_actions, device, sync_every=25)
buf = Replay(500, 580)
rng = random.Random(5800)
returns, losses = [], []
for ep in range(60):
    s = env.reset()
    eps = max(0.05, 1.0 - ep / 30)
    ret = 0.0
    for t in range(20):
        a = agent.act(s, eps, rng)
        s2, r, done = env.step(a)
        buf.push(s, a, r, s2, float(done))
        ret += r
        s = s2
        if len(buf.items) >= 32:
            losses.append(agent.learn(buf.sample(32, device), 0.9))
        if done:
            break
    returns.append(ret)

with torch.no_grad():
    table = agent.online(torch.arange(Chain.n_states, device=device))
print('returns', [round(r, 2) for r in returns[-6:]], 'loss', round(sum(losses[-20:]) / 20, 6))
print('greedy', table.argmax(1).tolist())
print('checksum', round(table.double().sum().item(), 6), agent.updates)
