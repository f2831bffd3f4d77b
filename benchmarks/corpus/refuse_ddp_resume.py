"""Each rank saves and then reloads a checkpoint: guarding the save by rank would break the reload."""
import torch
import torch.distributed as dist
import torch.nn as nn
from torch.nn.parallel import DistributedDataParallel as DDP

dist.init_process_group("gloo")
model = DDP(nn.Linear(8, 2))
opt = torch.optim.SGD(model.parameters(), lr=0.1)
x, y = torch.randn(64, 8), torch.randn(64, 2)
for step in range(50):
    loss = nn.functional.mse_loss(model(x), y)
    opt.zero_grad()
    loss.backward()
    opt.step()
    if step == 25:
        torch.save(model.module.state_dict(), "mid.pt")  # paef: refuse ddp-save-every-rank
        model.module.load_state_dict(torch.load("mid.pt"))
