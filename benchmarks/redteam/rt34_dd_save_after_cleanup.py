# corpus: runnable
# Red team 34 (blind): a DDP script whose `main` sets the process group up unconditionally, trains,
# tears the group down through a `cleanup()` helper (defined below `main`, as many templates do) and
# only then writes the final checkpoint and reports it. At that point no process group exists.
import os
import tempfile

import torch
import torch.distributed as dist
import torch.nn.functional as F
from torch import nn
from torch.nn.parallel import DistributedDataParallel as DDP

torch.set_num_threads(1)


def main():
    torch.manual_seed(0)
    workdir = tempfile.mkdtemp(prefix="rt34_ddp_")
    dist.init_process_group("gloo", init_method="file://" + os.path.join(workdir, "rendezvous"), rank=0, world_size=1)
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    x = torch.randn(64, 5)
    y = x @ torch.randn(5, 1) + 0.1 * torch.randn(64, 1)
    model = DDP(nn.Linear(5, 1).to(device))
    opt = torch.optim.SGD(model.parameters(), lr=0.05)
    for epoch in range(4):
        for i in range(0, 64, 16):
            loss = F.mse_loss(model(x[i:i + 16].to(device)), y[i:i + 16].to(device))
            opt.zero_grad()
            loss.backward()
            opt.step()
        print(f"epoch {epoch} loss {loss.item():.5f}")
    cleanup()
    path = os.path.join(workdir, "final.pt")
    torch.save(model.module.state_dict(), path)
    print("checkpoint written:", os.path.exists(path))
    print("weights:", [round(v, 4) for v in model.module.weight.detach().cpu().flatten().tolist()])


def cleanup():
    dist.destroy_process_group()


if __name__ == "__main__":
    main()
