# corpus: runnable
# Red team 21 (attack on its own fix): the transformer layer is subclassed in one local module and
# stacked by a class of another; main.py names neither torch class.
import torch

from net import Net

torch.set_num_threads(1)
torch.manual_seed(21)
device = "cuda" if torch.cuda.is_available() else "cpu"
model = Net(16).to(device)
model.eval()
batches = [torch.randn(4, 7, 16) for _ in range(3)]
pad = torch.arange(7).expand(4, 7) >= torch.tensor([[7], [5], [3], [6]])
sums = []
for x in batches:
    out = model(x.to(device), pad.to(device))
    sums.append(out.abs().sum().item())
print("eval sums", [f"{s:.6f}" for s in sums])
