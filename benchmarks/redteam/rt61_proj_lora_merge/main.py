# corpus: runnable
# Red team 61 (blind): LoRA fine-tuning of a "pretrained" MLP on a shifted task. The base weights are frozen
# inside the adapters (requires_grad_(False)); only A and B train. Every 15 steps the model is evaluated with
# the adapters merged into the base weights and un-merged afterwards (evaluate.py): the base weights drift by
# float rounding across merges, which the program measures. A rank-reset experiment re-initialises B of the
# adapters at step 45 (new zero tensors); the loss history is kept as Python floats.
import torch
import torch.nn as nn
import torch.nn.functional as F

from evaluate import base_drift, evaluate
from lora import adapt, lora_parameters

torch.manual_seed(6107)
torch.set_num_threads(1)
device = 'cuda' if torch.cuda.is_available() else 'cpu'

N, D, C = 500, 16, 5
Wa = torch.randn(D, C)
Wb = Wa + 0.8 * torch.randn(D, C)
x = torch.randn(N, D)
ya = (x @ Wa).argmax(1)
yb = (x @ Wb).argmax(1)
x, ya, yb = x.to(device), ya.to(device), yb.to(device)

model = nn.Sequential(nn.Linear(D, 64), nn.ReLU(), nn.Linear(64, 64), nn.ReLU(), nn.Linear(64, C)).to(device)
opt = torch.optim.Adam(model.parameters(), lr=3e-3)
for step in range(150):
    idx = torch.randint(0, N, (64,))
    loss = F.cross_entropy(model(x[idx]), ya[idx])
    opt.zero_grad()
    loss.backward()
    opt.step()

adapters = adapt(model, rank=4, alpha=8.0)
for a in adapters:
    a.to(device)
originals = [a.base.weight.detach().cpu().clone() for a in adapters]
opt = torch.optim.AdamW(lora_parameters(adapters), lr=1e-2, weight_decay=0.0)
history = []
evals = []
for step in range(90):
    idx = torch.randint(0, N, (64,))
    loss = F.cross_entropy(model(x[idx]), yb[idx])
    opt.zero_grad()
    loss.backward()
    opt.step()
    history.append(loss.item())
    if step == 45:
        for a in adapters:
            a.B.data = torch.zeros(a.B.shape).to(device)
        opt.state.clear()
    if step % 15 == 14:
        evals.append(evaluate(model, adapters, x, yb))

vl, va = evaluate(model, adapters, x, yb)
hist = torch.tensor(history)
print('evals', [(round(l, 4), round(a, 3)) for l, a in evals])
print('final', round(vl, 5), va, 'hist', round(hist[-10:].mean().item(), 5))
print('checksum', f'{base_drift(adapters, originals):.3e}',
      round(sum(p.double().sum().item() for p in lora_parameters(adapters)), 6))
