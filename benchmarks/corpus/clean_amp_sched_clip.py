# corpus: runnable
"""Mixed precision (when a GPU exists), OneCycle schedule, gradient clipping, sparse logging."""
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset

torch.manual_seed(0)
device = "cuda" if torch.cuda.is_available() else "cpu"
use_amp = device == "cuda"
epochs, log_interval = 3, 4

ds = TensorDataset(torch.randn(192, 24), torch.randint(0, 6, (192,)))
loader = DataLoader(ds, batch_size=32, shuffle=True, drop_last=True, pin_memory=use_amp)
model = nn.Sequential(nn.Linear(24, 48), nn.SiLU(), nn.Dropout(0.1), nn.Linear(48, 6)).to(device)
optimizer = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9, nesterov=True)
scheduler = torch.optim.lr_scheduler.OneCycleLR(optimizer, max_lr=0.2, total_steps=epochs * len(loader))
scaler = torch.amp.GradScaler(device, enabled=use_amp)
criterion = nn.CrossEntropyLoss()

global_step = 0
for epoch in range(epochs):
    model.train()
    for images, target in loader:
        images = images.to(device, non_blocking=True)
        target = target.to(device, non_blocking=True)
        with torch.autocast(device_type=device, dtype=torch.float16, enabled=use_amp):
            loss = criterion(model(images), target)
        optimizer.zero_grad(set_to_none=True)
        scaler.scale(loss).backward()
        scaler.unscale_(optimizer)
        nn.utils.clip_grad_norm_(model.parameters(), max_norm=1.0)
        scaler.step(optimizer)
        scaler.update()
        scheduler.step()
        global_step += 1
        if global_step % log_interval == 0:
            print(f"step {global_step} lr {scheduler.get_last_lr()[0]:.5f} loss {loss.item():.4f}")
