# corpus: runnable
# Red team 53 (blind): a Metropolis-adjusted Langevin sampler for a banana-shaped 2-D density, with a
# random-walk Metropolis chain beside it for comparison. The proposal noise is drawn on the CPU generator
# then moved to the device, the accept / reject is decided on .item() of a uniform draw, the step size is
# adapted every 25 steps from the acceptance rate (Robbins-Monro on the log step), and the chain is thinned
# into a Python list. Burn-in statistics and the effective-sample-size estimate are computed on the host.
import math

import torch

torch.manual_seed(5303)
torch.set_num_threads(1)
device = 'cuda' if torch.cuda.is_available() else 'cpu'


def log_prob(z):
    a, b = 1.0, 0.5
    x, y = z[..., 0], z[..., 1]
    return -0.5 * (x / a) ** 2 - 0.5 * ((y - b * x ** 2 + b) / 0.6) ** 2


def grad_log_prob(z):
    z = z.detach().requires_grad_()
    lp = log_prob(z)
    g, = torch.autograd.grad(lp, z)
    return lp.detach(), g


def mala(n_steps, step):
    z = torch.zeros(2).to(device)
    lp, g = grad_log_prob(z)
    kept = []
    accepted = 0
    window = 0
    log_step = math.log(step)
    for t in range(n_steps):
        noise = torch.randn(2).to(device)
        prop = z + step * g + math.sqrt(2 * step) * noise
        lp_p, g_p = grad_log_prob(prop)
        fwd = -((prop - z - step * g) ** 2).sum() / (4 * step)
        bwd = -((z - prop - step * g_p) ** 2).sum() / (4 * step)
        log_alpha = lp_p - lp + bwd - fwd
        u = torch.rand(1).to(device)
        if torch.log(u).item() < log_alpha.item():
            z, lp, g = prop, lp_p, g_p
            accepted += 1
            window += 1
        if t % 25 == 24:
            rate = window / 25
            log_step += (rate - 0.57) / math.sqrt(t + 1)
            step = math.exp(log_step)
            window = 0
        if t >= 100 and t % 4 == 0:
            kept.append(z.clone())
    return torch.stack(kept), accepted / n_steps, step


def rwm(n_steps, scale):
    z = torch.zeros(2, device=device)
    lp = log_prob(z)
    trace = []
    acc = 0
    for t in range(n_steps):
        prop = z + scale * torch.randn(2).to(device)
        lp_p = log_prob(prop)
        if torch.rand(1).item() < math.exp(min(0.0, (lp_p - lp).item())):
            z, lp = prop, lp_p
            acc += 1
        trace.append(z[0].item())
    return torch.tensor(trace), acc / n_steps


samples, rate, final_step = mala(900, 0.2)
trace, rw_rate = rwm(900, 0.8)

burn = trace[200:]
mean = burn.mean().item()
var = burn.var().item()
lags = []
for k in range(1, 30):
    c = ((burn[:-k] - mean) * (burn[k:] - mean)).mean().item() / var
    if c < 0.05:
        break
    lags.append(c)
ess = len(burn) / (1 + 2 * sum(lags))

print('mala', samples.shape[0], round(rate, 4), round(final_step, 6))
print('mala mean', [round(v, 6) for v in samples.mean(0).tolist()])
print('mala cov', [round(v, 6) for v in torch.cov(samples.T).flatten().tolist()])
print('rwm', round(rw_rate, 4), round(mean, 6), round(var, 6), round(ess, 3))
