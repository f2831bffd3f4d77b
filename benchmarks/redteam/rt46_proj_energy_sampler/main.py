# corpus: runnable
# Red team 46 (blind): an energy-based model trained by contrastive divergence. Sampling (another module)
# differentiates the energy w.r.t. the samples under `fork_rng` with an explicit CPU generator; the
# evaluation loop samples again with the model in eval mode and no no_grad, and re-seeds torch per round.
import torch

from energy import EnergyNet
from sampler import ReplayBuffer, langevin

torch.manual_seed(7)
torch.set_num_threads(1)
device = 'cuda' if torch.cuda.is_available() else 'cpu'

gen = torch.Generator().manual_seed(11)
data = torch.cat([torch.randn(64, 2) * 0.3 + 1.0, torch.randn(64, 2) * 0.3 - 1.0])
model = EnergyNet().to(device)
opt = torch.optim.Adam(model.parameters(), lr=1e-3)
buffer = ReplayBuffer(64, 2, gen)

for it in range(12):
    model.train()
    pos = data[torch.randperm(len(data))[:16]].to(device)
    neg = langevin(model, buffer.draw(16, device), steps=5, step_size=0.05, gen=gen)
    buffer.push(neg)
    loss = model(pos).mean() - model(neg).mean() + 0.1 * (model(pos) ** 2 + model(neg) ** 2).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
    if it % 4 == 0:
        print('it', it, '%.10f' % loss.item())

model.eval()
score = 0.0
spread = []
for rnd in range(3):
    torch.manual_seed(100 + rnd)
    init = torch.rand(16, 2).to(device) * 4 - 2
    samples = langevin(model, init, steps=8, step_size=0.05, gen=gen)
    score += model(samples).mean().item()
    spread.append(samples.std().item())
print('eval score %.10f' % score)
print('spread', torch.tensor(spread))
print('global draw after eval %.10f' % torch.rand(1).item())
print('generator draw after eval %.10f' % torch.rand(1, generator=gen).item())
