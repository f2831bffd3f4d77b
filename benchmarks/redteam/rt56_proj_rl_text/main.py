# corpus: runnable
# Red team 56 (blind): RL on generated token sequences. The policy samples under inference_mode (token lists
# back on the host), a hand-written reward scores the lists, sequence log-probabilities are computed by one
# helper (model in eval mode) that serves the old log-probs (under no_grad), the reference model's log-probs and
# the new log-probs the clipped policy-gradient step differentiates. A running baseline decides the advantage.
import copy

import torch
import torch.nn.functional as F

from policy import BOS, EOS, PAD, V, Policy
from train import rl_round

torch.manual_seed(5609)
torch.set_num_threads(1)
device = 'cuda' if torch.cuda.is_available() else 'cpu'
gen = torch.Generator().manual_seed(569)

# warm start: imitate a few short ascending sequences
demos = [[2, 3, 4, 1], [5, 6, 1], [3, 4, 5, 6, 1], [4, 5, 1], [2, 4, 6, 1]]
policy = Policy().to(device)
opt = torch.optim.Adam(policy.parameters(), lr=1e-2)
width = max(map(len, demos)) + 1
batch = torch.full((len(demos), width), PAD)
for i, d in enumerate(demos):
    batch[i, :len(d) + 1] = torch.tensor([BOS] + d)
batch = batch.to(device)
for step in range(60):
    logits, _ = policy(batch[:, :-1])
    loss = F.cross_entropy(logits.reshape(-1, V), batch[:, 1:].reshape(-1), ignore_index=PAD)
    opt.zero_grad()
    loss.backward()
    opt.step()
print('warm start', round(loss.item(), 4))
ref = copy.deepcopy(policy)
for p in ref.parameters():
    p.requires_grad_(False)

opt = torch.optim.Adam(policy.parameters(), lr=3e-3)
state = {'baseline': 0.0}
curve = []
total_reward = 0.0
for rnd in range(25):
    rewards, losses, seqs = rl_round(policy, ref, opt, gen, device, state)
    total_reward += rewards.sum().item()
    curve.append(round(rewards.mean().item(), 4))
print('mean reward per round', curve[::5], round(state['baseline'], 4))
print('last samples', seqs[:4])
wnorm = sum(p.detach().norm().item() for p in policy.parameters())
print('checksum', round(total_reward + sum(curve) + wnorm + sum(losses), 4))
