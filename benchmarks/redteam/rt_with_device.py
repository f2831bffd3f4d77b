# corpus: runnable
import torch
torch.manual_seed(0)
dev = "cpu"
outs = []
for step in range(3):
    with torch.device(dev):
        m = torch.ones(3)
    outs.append(m.device.type)
print(outs)
for step in range(2):
    with torch.autocast("cpu", dtype=torch.bfloat16):
        w = torch.tensor([1.0, 2.0])
    print(w.dtype)
