# corpus: runnable
# Red team 52 probe (not blind): the blind force-field program's first shape, with the autograd call moved
# into a SUBMODULE of models defined in a local module (models.py).
import torch

from models import Simulator

torch.manual_seed(5212)
torch.set_num_threads(1)
device = 'cuda' if torch.cuda.is_available() else 'cpu'
pos = torch.randn(32, 2, device=device)
sim = Simulator().to(device)
opt = torch.optim.Adam(sim.parameters(), lr=0.01)
for i in range(0, 32, 8):
    p = pos[i:i + 8]
    loss = ((sim(p) - 0.9 * p) ** 2).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
sim.eval()
err = 0.0
for i in range(0, 32, 8):
    p = pos[i:i + 8]
    err += (sim(p) - 0.9 * p).abs().mean().item()
print('sim', round(err, 5))

print('checksum', round(err, 5))
