# corpus: runnable
# Red team 53 (blind): model-based control with CEM planning. Random transitions train a dynamics model;
# then an MPC loop plans with CEM at every real step (sample action sequences from a CPU generator, score
# them through the model in eval mode, refit mean/std on the elites), executes the first action in the true
# simulator, appends the transition, and refits the model every 5 steps. The real trajectory and the
# per-step planned scores are kept; the model's one-step error is read per step. At the end the last CEM
# mean is refined by gradient ascent on the actions through the same model rollout helper.
import torch

from env import reward, step
from model import Dynamics, fit, imagine
from planner import cem

torch.manual_seed(5308)
torch.set_num_threads(1)
device = 'cuda' if torch.cuda.is_available() else 'cpu'
gen = torch.Generator().manual_seed(538)

S = torch.randn(256, 2, generator=gen).to(device)
A = (torch.rand(256, generator=gen) * 2 - 1).to(device)
N = step(S, A)
model = Dynamics().to(device)
pre = fit(model, S, A, N, epochs=150, lr=0.02)

state = torch.zeros(2, device=device)
traj = [state]
planned = []
errors = []
for t in range(15):
    plan, score, mu = cem(model, state, horizon=8, pop=64, elites=8, iters=4, gen=gen, device=device)
    action = plan[0:1]
    nxt = step(state, action[0])
    with torch.no_grad():
        errors.append((model(state[None], action) - nxt[None]).abs().sum().item())
    planned.append(score)
    S = torch.cat([S, state[None]])
    A = torch.cat([A, action])
    N = torch.cat([N, nxt[None]])
    state = nxt
    traj.append(state)
    if t % 5 == 4:
        model.train()
        fit(model, S, A, N, epochs=20, lr=0.01)

traj = torch.stack(traj)

# refine the last CEM mean by gradient ascent through the (frozen) model: the actions are the parameters
seq = mu.detach().clone()[None].requires_grad_(True)
aopt = torch.optim.Adam([seq], lr=0.1)
refine = []
for k in range(10):
    value = imagine(model, state, seq.clamp(-1.0, 1.0)).sum()
    aopt.zero_grad()
    (-value).backward()
    aopt.step()
    refine.append(value.item())
final_scores = imagine(model, state, torch.zeros(3, 8, device=device))
print('pretrain', round(pre[0], 6), round(pre[-1], 8))
print('traj', [round(v, 5) for v in traj[:, 0].tolist()])
print('planned', [round(v, 4) for v in planned])
print('refine', [round(v, 5) for v in refine], round(seq.detach().sum().item(), 6))
print('errors', round(sum(errors), 6))
print('reward', round(reward(traj, 1.0).sum().item(), 6), [round(v, 5) for v in final_scores.tolist()])
