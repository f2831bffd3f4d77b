# corpus: runnable
# Red team 23: tensors changed in place through `out=`, index_put_ / scatter_ / index_add_,
# vector_to_parameters, nn.init, torch._foreach_*, NumPy `out=` and `.data =`; the loop reads them
import numpy as np
import torch
from torch import nn

torch.set_num_threads(1)
torch.manual_seed(23)
device = "cuda" if torch.cuda.is_available() else "cpu"

t_out = torch.ones(4)
t_put = torch.ones(4)
t_scat = torch.ones(4)
t_iadd = torch.ones(4)
t_init = torch.ones(4)
t_each = torch.ones(4)
frozen = nn.Linear(4, 4)
frozen.requires_grad_(False)
vec_target = nn.Linear(2, 2)
vec_target.requires_grad_(False)
a_np = np.ones(4)
views = [t.numpy() for t in (t_out, t_put, t_scat, t_iadd, t_init, t_each)]
h_out, h_put, h_scat, h_iadd, h_init, h_each = views
h_vec = vec_target.weight.numpy()
model = nn.Linear(4, 1).to(device)
opt = torch.optim.SGD(model.parameters(), lr=0.01)
log = []
for step in range(4):
    r = [np.sqrt(h) for h in (h_out, h_put, h_scat, h_iadd, h_init, h_each)]
    c1 = np.sqrt(h_out)
    c2 = np.sqrt(h_put)
    c3 = np.sqrt(h_scat)
    c4 = np.sqrt(h_iadd)
    c5 = np.sqrt(h_init)
    c6 = np.sqrt(h_each)
    c7 = np.abs(h_vec)
    c8 = np.sqrt(a_np)
    fw = torch.tensor(frozen.weight.detach().numpy().sum(0), device=device)
    x = torch.randn(8, 4, device=device)
    loss = model(x * fw).pow(2).mean() * 1e-3
    opt.zero_grad()
    loss.backward()
    opt.step()
    torch.add(t_out, 1.0, out=t_out)
    t_put.index_put_((torch.tensor([step % 4]),), torch.tensor(5.0))
    t_scat.scatter_(0, torch.tensor([step % 4]), torch.tensor([7.0]))
    t_iadd.index_add_(0, torch.tensor([0]), torch.tensor([2.0]))
    nn.init.constant_(t_init, float(step + 2))
    torch._foreach_add_([t_each], 3.0)
    np.add(a_np, 1.0, out=a_np)
    torch.nn.utils.vector_to_parameters(torch.full((6,), float(step + 2)), vec_target.parameters())
    frozen.weight.data = frozen.weight.data * 2.0
    log.append([round(float(v.sum()), 4) for v in (c1, c2, c3, c4, c5, c6, c7, c8)] + [round(float(fw.sum()), 4)])
print("writes", log)
