# corpus: runnable
# Red team 50 (blind): gradient mechanics between backward and step. Micro-batch accumulation with the loss
# divided by the count, `clip_grad_norm_`'s returned norm logged and used to skip a step, gradients edited in
# place (`p.grad.data.clamp_`, `p.grad /= world`), two backward passes with `retain_graph=True`, a gradient
# penalty made with `create_graph=True` whose epoch total is differentiated once more by `torch.autograd.grad`,
# and per-parameter statistics gathered as Python numbers then turned into a tensor.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(5004)
torch.set_num_threads(1)
device = 'cuda' if torch.cuda.is_available() else 'cpu'

X = torch.randn(64, 6)
Y = (X[:, :2].sum(1, keepdim=True) > 0).float()
model = nn.Sequential(nn.Linear(6, 16), nn.ReLU(), nn.Linear(16, 1)).to(device)
head = nn.Linear(6, 1).to(device).double()
opt = torch.optim.SGD(list(model.parameters()) + list(head.parameters()), lr=0.1)
accum, world, max_norm = 4, 2.0, 0.5

skipped = 0
norm_log = []
for epoch in range(2):
    running = 0.0
    for i in range(16):
        xb, yb = X[i * 4:(i + 1) * 4].to(device), Y[i * 4:(i + 1) * 4].to(device)
        logits = model(xb) + head(xb.double()).float()
        loss = F.binary_cross_entropy_with_logits(logits, yb) / accum
        loss.backward()
        running += loss.item() * accum
        if (i + 1) % accum == 0:
            for p in model.parameters():
                p.grad /= world
                p.grad.data.clamp_(-1.0, 1.0)
            gn = torch.nn.utils.clip_grad_norm_(model.parameters(), max_norm)
            norm_log.append(gn.item())
            if gn.item() > 4.0:
                skipped += 1
                opt.zero_grad()
                continue
            per_param = [p.grad.norm().item() for p in opt.param_groups[0]['params']]
            stats = torch.tensor(per_param)
            opt.step()
            opt.zero_grad()
            print('accum', epoch, i, f'{gn.item():.10f}', stats.dtype, f'{stats.sum().item():.10f}')
    print('epoch', epoch, f'{running:.10f}', skipped, len(norm_log))
print('norms', torch.tensor(norm_log).dtype, [f'{v:.8f}' for v in norm_log])

# two backward passes through a shared trunk
trunk = nn.Linear(6, 8).to(device)
heads = nn.ModuleList([nn.Linear(8, 1), nn.Linear(8, 1)]).to(device)
opt2 = torch.optim.Adam(list(trunk.parameters()) + list(heads.parameters()), lr=1e-2)
for it in range(5):
    xb, yb = X[it * 8:(it + 1) * 8].to(device), Y[it * 8:(it + 1) * 8].to(device)
    h = torch.tanh(trunk(xb))
    l1 = F.mse_loss(heads[0](h), yb)
    l2 = F.mse_loss(heads[1](h), 1 - yb)
    opt2.zero_grad()
    l1.backward(retain_graph=True)
    g_first = trunk.weight.grad.clone()
    l2.backward()
    opt2.step()
    print('two-pass', it, f'{l1.item():.10f}', f'{l2.item():.10f}', f'{(trunk.weight.grad - g_first).norm().item():.10f}')

# gradient penalty with create_graph; the epoch's penalty total is differentiated w.r.t. a temperature
critic = nn.Sequential(nn.Linear(6, 8), nn.Tanh(), nn.Linear(8, 1)).to(device)
temp = torch.tensor(1.0, device=device, requires_grad=True)
temp.grad = None
copt = torch.optim.SGD(critic.parameters(), lr=0.05)
for epoch in range(2):
    gp_total = 0
    for it in range(4):
        real = X[it * 16:(it + 1) * 16].to(device).requires_grad_(True)
        out = critic(real * temp)
        (g,) = torch.autograd.grad(out.sum(), real, create_graph=True)
        gp = ((g.norm(2, dim=1) - 1) ** 2).mean()
        (out.mean() + 10 * gp).backward(retain_graph=True)
        gp_total += gp
    (dt,) = torch.autograd.grad(gp_total, temp, allow_unused=True)
    copt.step()
    copt.zero_grad()
    with torch.no_grad():
        temp -= 0.01 * dt
    print('penalty', epoch, f'{float(gp_total):.10f}', f'{temp.item():.10f}')
