# corpus: runnable
# Red team 21: saved-tensor hooks (activation offloading with a byte counter). Autograd calls the
# pack hook only for tensors it saves for backward: under no_grad it is never called, so the
# offload statistics an evaluation pass prints change when the loop is wrapped.
import torch
import torch.nn.functional as F
from torch import nn

torch.set_num_threads(1)
torch.manual_seed(21)
device = "cuda" if torch.cuda.is_available() else "cpu"
offloaded = {"tensors": 0, "bytes": 0}


def pack_to_cpu(t):
    offloaded["tensors"] += 1
    offloaded["bytes"] += t.numel() * t.element_size()
    return t.to("cpu")


def unpack_from_cpu(t):
    return t.to(device)


model = nn.Sequential(nn.Linear(16, 32), nn.ReLU(), nn.Linear(32, 4)).to(device)
opt = torch.optim.SGD(model.parameters(), lr=0.05)
data = [(torch.randn(8, 16), torch.randint(0, 4, (8,))) for _ in range(4)]
for x, y in data:
    with torch.autograd.graph.saved_tensors_hooks(pack_to_cpu, unpack_from_cpu):
        loss = F.cross_entropy(model(x.to(device)), y.to(device))
    opt.zero_grad()
    loss.backward()
    opt.step()
print("training offload", offloaded)

model.eval()
correct = 0
with torch.autograd.graph.saved_tensors_hooks(pack_to_cpu, unpack_from_cpu):
    for x, y in data:
        logits = model(x.to(device))
        correct += int((logits.argmax(1) == y.to(device)).sum())
print("eval", correct, offloaded)


class Offloaded(nn.Module):
    """Runs its body with activations offloaded, counting what was offloaded."""

    def __init__(self, body):
        super().__init__()
        self.body = body
        self.packed = 0

    def pack(self, t):
        self.packed += 1
        return t

    def forward(self, x):
        with torch.autograd.graph.saved_tensors_hooks(self.pack, lambda t: t):
            return self.body(x)


net = Offloaded(nn.Sequential(nn.Linear(16, 8), nn.Tanh(), nn.Linear(8, 4))).to(device)
net.eval()
hits = 0
for x, y in data:
    hits += int((net(x.to(device)).argmax(1) == y.to(device)).sum())
print("offloaded module", hits, net.packed)
