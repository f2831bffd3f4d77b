# corpus: runnable
# Library objects that change other objects: a scheduler's `step()` changes the optimizer's
# learning rate, a batch norm's forward counts batches, `rng.shuffle`/`Random.shuffle` permute
# in place, `nn.init.constant_`, `np.copyto`, `np.add(out=)`, `load_state_dict` copy into
# tensors, a forward hook appends; and a size given by an object whose `__index__` counts.
import torch, numpy as np, random
from torch import nn
torch.set_num_threads(1)
torch.manual_seed(0)
model = nn.Linear(2, 1)
opt = torch.optim.SGD(model.parameters(), lr=1.0)
sched = torch.optim.lr_scheduler.StepLR(opt, step_size=1, gamma=0.5)
lrs = []
for step in range(3):
    loss = model(torch.ones(1, 2)).sum()
    opt.zero_grad(); loss.backward(); opt.step(); sched.step()
    lr = torch.tensor(opt.param_groups[0]["lr"])
    lrs.append(float(lr))
print("A sched lr", lrs)

bn = nn.BatchNorm1d(2)
nb = []
for step in range(3):
    bn(torch.randn(4, 2))
    k = torch.tensor(int(bn.num_batches_tracked))
    nb.append(int(k))
print("B bn count", nb)

class Idx:
    def __init__(self):
        self.calls = 0
    def __index__(self):
        self.calls += 1
        return self.calls
K = Idx()
ns = []
for step in range(3):
    z = torch.zeros(K)
    ns.append(z.numel())
print("C __index__", ns)

idx = np.arange(6)
rng = np.random.default_rng(0)
sh = []
for step in range(3):
    rng.shuffle(idx)
    t = torch.tensor(idx)
    sh.append(t.tolist())
print("D rng.shuffle", sh)

lst = [3, 1, 2]
r = random.Random(0)
ls = []
for step in range(3):
    r.shuffle(lst)
    t = torch.tensor(lst)
    ls.append(t.tolist())
print("E Random.shuffle", ls)

w = torch.zeros(3)
ws = []
for step in range(3):
    nn.init.constant_(w, float(step))
    t = torch.tensor(w.tolist())
    ws.append(t.tolist())
print("F init", ws)

arr = np.zeros(3)
cs = []
for step in range(3):
    np.copyto(arr, np.full(3, step))
    t = torch.tensor(arr)
    cs.append(t.tolist())
print("G copyto", cs)

a2 = np.zeros(3)
os_ = []
for step in range(3):
    np.add(a2, 1.0, out=a2)
    t = torch.as_tensor(a2.copy())
    os_.append(t.tolist())
print("H out=", os_)

m2 = nn.Linear(2, 1)
src = nn.Linear(2, 1)
ld = []
for step in range(3):
    with torch.no_grad():
        src.weight.add_(1.0)
    m2.load_state_dict(src.state_dict())
    t = torch.tensor(m2.weight.tolist())
    ld.append(t.sum().item())
print("I load_state_dict", ld)

hooked = []
m3 = nn.Linear(2, 1)
m3.register_forward_hook(lambda mod, i, o: hooked.append(1))
hl = []
for step in range(3):
    m3(torch.ones(1, 2))
    t = torch.tensor(len(hooked))
    hl.append(int(t))
print("J hook", hl)
