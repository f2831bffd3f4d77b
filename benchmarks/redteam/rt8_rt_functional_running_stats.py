# corpus: runnable
# Meta-learning style code that runs batch norm functionally (MAML/"higher" style): the
# running statistics are plain tensors handed to `F.batch_norm`/`F.instance_norm`, which update
# them in place when training. Also an embedding with `max_norm` (renormalises its table in
# place) and a `_foreach_` EMA over a list of fresh tensors.
import torch
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_num_threads(1)
device = "cuda" if torch.cuda.is_available() else "cpu"
tasks = [torch.randn(6, 4, device=device) + i for i in range(3)]

adapted = []
for x in tasks:
    running_mean = torch.zeros(4, device=device)
    running_var = torch.ones(4, device=device)
    h = F.batch_norm(x, running_mean, running_var, training=True, momentum=0.5)
    adapted.append((running_mean.sum().item(), running_var.sum().item(), h.sum().item()))
print("bn", [tuple(round(v, 5) for v in a) for a in adapted])

inst = []
for x in tasks:
    rm = torch.zeros(4, device=device)
    rv = torch.ones(4, device=device)
    y = F.instance_norm(x.t().unsqueeze(0), rm, rv, use_input_stats=True, momentum=0.25)
    inst.append(round(rm.sum().item(), 5))
print("instance", inst)

ids = torch.tensor([0, 2, 4])
norms = []
for step in range(3):
    table = torch.full((5, 4), 2.0 + step, device=device)
    e = F.embedding(ids, table, max_norm=1.0)
    norms.append(round(table.sum().item(), 5))
print("embedding max_norm", norms)

shadow = []
for x in tasks:
    m1 = torch.ones(4, device=device)
    m2 = torch.zeros(4, device=device)
    torch._foreach_mul_([m1, m2], 0.9)
    torch._foreach_add_([m1, m2], [x[0], x[1]], alpha=0.1)
    shadow.append(round((m1.sum() + m2.sum()).item(), 5))
print("foreach", shadow)

stats = []
for x in tasks:
    mu = torch.zeros(4, device=device)
    var = torch.ones(4, device=device)
    F.batch_norm(x, mu, var, training=False)
    stats.append(round(mu.sum().item(), 5))
print("bn eval (reads only)", stats)
