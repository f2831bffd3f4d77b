# corpus: runnable
import os
import torch
import torch.distributed as dist
from torch.nn.parallel import DistributedDataParallel as DDP

dist.init_process_group("gloo")
rank = dist.get_rank()
model = DDP(torch.nn.Linear(4, 1))
opt = torch.optim.SGD(model.parameters(), lr=0.1)
for epoch in range(2):
    loss = model(torch.randn(8, 4)).pow(2).mean()
    opt.zero_grad(); loss.backward(); opt.step()
    torch.save(model.module.state_dict(), "best.pt")
    dist.barrier()
    model.module.load_state_dict(torch.load("best.pt"))
torch.save(opt.state_dict(), f"opt_rank{rank}.pt")
state = torch.load(f"opt_rank{rank}.pt")
torch.save({"rng": torch.get_rng_state()}, f"rng_{dist.get_rank()}.pt")
result = sorted(os.listdir("."))
