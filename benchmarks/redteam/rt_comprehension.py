# corpus: runnable
import torch
torch.manual_seed(0)
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
layers = 3
hidden = [torch.zeros(2, device=device) for _ in range(layers)]
hidden[0].add_(1)
print([h.sum().item() for h in hidden])
masks = {k: torch.ones(2, device=device) for k in range(3)}
masks[1].mul_(5)
print([m.sum().item() for m in masks.values()])
class Net(torch.nn.Module):
    def __init__(self):
        super().__init__()
        for i in range(3):
            self.register_buffer(f"m{i}", torch.ones(2))
net = Net()
net.m0.add_(1)
print(net.m1)
def gen():
    for i in range(3):
        yield torch.zeros(2, device=device)
g = list(gen())
g[0] += 1
print([t.sum().item() for t in g])
