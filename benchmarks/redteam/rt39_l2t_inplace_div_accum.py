# corpus: runnable
# Red team 39 (blind): gradient accumulation written the way many scripts do it: the per-micro-batch loss is
# logged first (`losses.append(loss.item())`), then scaled IN PLACE (`loss /= accum_steps`) before backward,
# under autocast and a GradScaler that is enabled only on CUDA. The epoch mean is taken from the logged list.
import torch
import torch.nn as nn

torch.manual_seed(11)
torch.set_num_threads(1)
device = "cuda" if torch.cuda.is_available() else "cpu"

x = torch.randn(48, 5, device=device)
y = torch.randn(48, 1, device=device)
model = nn.Sequential(nn.Linear(5, 8), nn.Tanh(), nn.Linear(8, 1)).to(device)
opt = torch.optim.SGD(model.parameters(), lr=0.05)
scaler = torch.amp.GradScaler("cuda", enabled=(device == "cuda"))
accum_steps = 3

for epoch in range(3):
    losses = []
    opt.zero_grad()
    for i in range(0, 48, 4):
        with torch.autocast(device_type=device, dtype=torch.float32, enabled=False):
            out = model(x[i : i + 4])
            loss = nn.functional.mse_loss(out, y[i : i + 4])
        losses.append(loss.item())
        loss /= accum_steps
        scaler.scale(loss).backward()
        if (i // 4 + 1) % accum_steps == 0:
            scaler.step(opt)
            scaler.update()
            opt.zero_grad()
    epoch_mean = torch.tensor(losses).mean()
    print(epoch, len(losses), f"{epoch_mean.item():.15f}")
print("final", [f"{p.sum().item():.12f}" for p in model.parameters()])
