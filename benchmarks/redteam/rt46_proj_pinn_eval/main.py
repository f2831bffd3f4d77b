# corpus: runnable
# Red team 46 (blind): a physics-informed network. `config` switches the default dtype to float64 at import;
# the residual differentiates the network w.r.t. its input points, in training AND in evaluation (model.eval(),
# no no_grad), and per-batch worst residuals are `.item()`s turned back into a tensor.
import config  # noqa: F401  (sets the default dtype)
import torch
import torch.nn as nn

from evaluate import evaluate
from physics import boundary_error, residual

torch.manual_seed(0)
torch.set_num_threads(1)
device = 'cuda' if torch.cuda.is_available() else 'cpu'

model = nn.Sequential(nn.Linear(1, config.WIDTH), nn.Tanh(), nn.Linear(config.WIDTH, config.WIDTH), nn.Tanh(),
                      nn.Linear(config.WIDTH, 1)).to(device)
opt = torch.optim.Adam(model.parameters(), lr=config.LR)
colloc = torch.linspace(0.0, 1.0, config.N_COLLOCATION).unsqueeze(1)

history = []
for step in range(30):
    model.train()
    opt.zero_grad()
    x = colloc.to(device)
    loss = residual(model, x).pow(2).mean() + 10.0 * boundary_error(model, device)
    loss.backward()
    opt.step()
    history.append(loss.item())
print('last losses', [round(v, 12) for v in history[-3:]])
print('default dtype', torch.get_default_dtype(), 'param dtype', next(model.parameters()).dtype)

test_points = torch.rand(20, 1)
res_total, err_total, worst = evaluate(model, test_points, device)
print('residual total %.12f  error total %.12f' % (res_total, err_total))
print('worst per batch', worst, worst.dtype, worst.shape)
print('grad enabled after eval', torch.is_grad_enabled())
