# corpus: runnable
# Red team 50 (blind): a layer-wise LAMB-like optimizer written by hand (optim.py) whose per-parameter rate is a
# group entry changed by a helper method inside the parameter loop, driven by a warmup/cosine schedule that a
# helper module writes into the param groups (schedule.py); the loop builds per-step tensors from the rate the
# group holds and keeps running totals.
import torch
import torch.nn as nn
import torch.nn.functional as F

from optim import LayerwiseLamb
from schedule import rate_at, set_rate

torch.manual_seed(5008)
torch.set_num_threads(1)
device = 'cuda' if torch.cuda.is_available() else 'cpu'

X = torch.randn(80, 6)
Y = (X @ torch.linspace(-1, 1, 6).unsqueeze(1)).sin()
model = nn.Sequential(nn.Linear(6, 12), nn.SiLU(), nn.Linear(12, 12), nn.SiLU(), nn.Linear(12, 1)).to(device)
opt = LayerwiseLamb(model.parameters(), lr=0.02, weight_decay=0.01)

step = 0
total = 0.0
for epoch in range(3):
    for i in range(0, 80, 16):
        set_rate(opt, rate_at(step, 0.02, 3, 15))
        xb, yb = X[i:i + 16].to(device), Y[i:i + 16].to(device)
        lr_now = torch.tensor(opt.param_groups[0]['lr'])
        smooth = torch.full((1,), 0.1).to(device) * lr_now.to(device) * 10
        loss = F.mse_loss(model(xb), yb * (1 - smooth) + smooth * yb.mean())
        opt.zero_grad()
        loss.backward()
        ratios = opt.step()
        total += loss.item()
        step += 1
    print('epoch', epoch, f'{total:.10f}', f'{lr_now.item():.8f}', [f'{r:.6f}' for r in ratios[:3]],
          f"{opt.param_groups[0]['run_lr']:.8f}")
print('final', [f'{v:.8f}' for v in model[-1].weight.flatten()[:4].tolist()])
