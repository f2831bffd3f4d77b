# corpus: runnable
# Red team 53 probe (not blind): torch.tensor(x.item()) snapshots of int32 / bool / float16 / bfloat16 /
# (1, 1)-shaped / float64 tensors inside sampler loops, and one handed an explicit dtype; printed with repr.
import torch

torch.manual_seed(5323)
torch.set_num_threads(1)
device = 'cuda' if torch.cuda.is_available() else 'cpu'

state = torch.zeros(4, dtype=torch.int32, device=device)
flags = torch.zeros(4, dtype=torch.bool, device=device)
h = torch.zeros(1, dtype=torch.float16, device=device)
bf = torch.zeros(1, dtype=torch.bfloat16, device=device)
m = torch.zeros(1, 1, device=device)
d = torch.zeros((), dtype=torch.float64, device=device)
snaps = []
for t in range(30):
    step = torch.randint(-1, 2, (4,), device=device, dtype=torch.int32)
    state += step
    flags = state > 1
    h += torch.rand(1, device=device).half() * 0.37
    bf += torch.rand(1, device=device).bfloat16() * 0.37
    m += torch.rand(1, 1, device=device)
    d += torch.rand((), dtype=torch.float64, device=device) / 3
    if t % 10 == 9:
        snaps.append(torch.tensor(state[0].item()))
        snaps.append(torch.tensor(flags[1].item()))
        snaps.append(torch.tensor(h.item()))
        snaps.append(torch.tensor(bf.item()))
        snaps.append(torch.tensor(m.item()))
        snaps.append(torch.tensor(d.item()))
        snaps.append(torch.tensor(d.item(), dtype=torch.float64))
        snaps.append(torch.tensor(state.sum().item(), dtype=torch.float32))
for s in snaps:
    print(repr(s))
