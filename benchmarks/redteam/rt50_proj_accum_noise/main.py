# corpus: runnable
# Red team 50 (blind): gradient accumulation with annealed gradient noise and clipping in another module
# (engine.py); the noise clock lives in a state dict that a callback handed to the engine advances after each
# step, and the returned norms and totals are printed.
import torch
import torch.nn as nn

from data import make_batches
from engine import train_one_epoch

torch.manual_seed(5009)
torch.set_num_threads(1)
device = 'cuda' if torch.cuda.is_available() else 'cpu'


def advance(state):
    state['t'] += 1
    state['steps'].append(state['t'])


batches = make_batches()
model = nn.Sequential(nn.Linear(5, 16), nn.ReLU(), nn.Linear(16, 2)).to(device)
opt = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
state = {'t': 0, 'steps': [], 'gen': torch.Generator().manual_seed(9)}
for epoch in range(3):
    loss, norms = train_one_epoch(model, opt, batches, device, state, advance)
    print('epoch', epoch, f'{loss:.10f}', norms.dtype, [f'{v:.8f}' for v in norms.tolist()], state['t'])
print('weights', f'{model[0].weight.sum().item():.10f}')
