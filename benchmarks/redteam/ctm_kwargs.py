# corpus: runnable
import torch
torch.manual_seed(0)
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
def make(shape, **factory_kwargs):
    out = []
    for i in range(2):
        out.append(torch.zeros(*shape, **factory_kwargs).to(device))
    return out
print(make((2,), dtype=torch.float64))
print(make((2,), device="cpu"))
opts = {"dtype": torch.float32}
if torch.__version__:
    opts["device"] = "cpu"
for i in range(2):
    a = torch.ones(3, **opts).to(device)
    print(a)
dt = torch.float64
for i in range(2):
    b = torch.arange(3).to(dt)
    c = torch.arange(3).cuda() if torch.cuda.is_available() else torch.arange(3)
    print(b, c)
