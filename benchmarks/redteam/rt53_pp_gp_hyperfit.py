# corpus: runnable
# Red team 53 (blind): fitting the hyperparameters of an exact Gaussian process (RBF kernel, float64) by
# maximising the marginal likelihood with Adam. The Cholesky is taken every step; when it fails the jitter
# is raised tenfold and the step retried. The best hyperparameters seen are snapshotted as tensors built from
# .item() reads (raw log-parameters that the optimiser keeps updating in place), the gradient norm is read
# per step for a stopping rule, and the posterior mean at test points is computed with the best ones.
import math

import torch

torch.manual_seed(5306)
torch.set_num_threads(1)
device = 'cuda' if torch.cuda.is_available() else 'cpu'

g = torch.Generator().manual_seed(536)
xs = torch.rand(40, 1, generator=g, dtype=torch.float64) * 6
ys = torch.sin(xs).squeeze(1) + 0.1 * torch.randn(40, generator=g, dtype=torch.float64)
xs, ys = xs.to(device), ys.to(device)

log_ls = torch.tensor(0.0, dtype=torch.float64, device=device, requires_grad=True)
log_sf = torch.tensor(0.0, dtype=torch.float64, device=device, requires_grad=True)
log_sn = torch.tensor(-1.0, dtype=torch.float64, device=device, requires_grad=True)
opt = torch.optim.Adam([log_ls, log_sf, log_sn], lr=0.05)


def kernel(a, b, ls, sf):
    d2 = (a - b.T) ** 2
    return sf ** 2 * torch.exp(-0.5 * d2 / ls ** 2)


def nll(jitter):
    K = kernel(xs, xs, log_ls.exp(), log_sf.exp())
    K = K + (log_sn.exp() ** 2 + jitter) * torch.eye(xs.shape[0], dtype=torch.float64, device=device)
    L = torch.linalg.cholesky(K)
    alpha = torch.cholesky_solve(ys[:, None], L)
    return 0.5 * (ys[:, None] * alpha).sum() + torch.log(torch.diagonal(L)).sum() + 0.5 * len(ys) * math.log(2 * math.pi)


jitter = 1e-10
best = math.inf
best_params = None
trace = []
for step in range(120):
    try:
        loss = nll(jitter)
    except RuntimeError:
        jitter *= 10
        continue
    opt.zero_grad()
    loss.backward()
    gnorm = torch.sqrt(sum(p.grad ** 2 for p in (log_ls, log_sf, log_sn)))
    if loss.item() < best:
        best = loss.item()
        best_params = (torch.tensor(log_ls.item()), torch.tensor(log_sf.item()), torch.tensor(log_sn.item()))
        best_loss = torch.tensor(loss.item())
    opt.step()
    trace.append(loss.item())
    if gnorm.item() < 1e-4:
        break

ls, sf, sn = (p.exp() for p in best_params)
with torch.no_grad():
    K = kernel(xs, xs, ls.to(device), sf.to(device)) + sn.to(device) ** 2 * torch.eye(40, dtype=torch.float64, device=device)
    xt = torch.linspace(0, 6, 13, dtype=torch.float64, device=device)[:, None]
    Ks = kernel(xt, xs, ls.to(device), sf.to(device))
    mean = Ks @ torch.linalg.solve(K, ys)

print('steps', len(trace), 'jitter', jitter)
print('best', repr(best_loss), [repr(p.item()) for p in best_params])
print('final', round(trace[-1], 8), round(log_ls.item(), 8), round(log_sn.item(), 8))
print('mean', [round(v, 6) for v in mean.tolist()])
