# corpus: runnable
# Red team 53 probe (not blind): a running total of .item() reads whose loop can be left by an exception
# (a Cholesky that fails once the noise level is driven down), read in the except handler, returned from it,
# and read in a finally block; also a loop left by an exception raised by a helper and caught outside.
import torch

torch.manual_seed(5325)
torch.set_num_threads(1)
device = 'cuda' if torch.cuda.is_available() else 'cpu'

g = torch.Generator().manual_seed(5325)
xs = torch.rand(30, 1, generator=g, dtype=torch.float64).to(device)
ys = torch.sin(3 * xs).squeeze(1)
K0 = torch.exp(-0.5 * (xs - xs.T) ** 2 / 0.5 ** 2)
log_noise = torch.tensor(-2.0, dtype=torch.float64, device=device, requires_grad=True)
opt = torch.optim.SGD([log_noise], lr=4.0)
notes = []


def nll():
    K = K0 + torch.exp(log_noise) * torch.eye(30, dtype=torch.float64, device=device) - 1e-3 * torch.eye(30, dtype=torch.float64, device=device)
    L = torch.linalg.cholesky(K)
    a = torch.cholesky_solve(ys[:, None], L)
    return 0.5 * (ys[:, None] * a).sum() + torch.log(torch.diagonal(L)).sum()


def fit(steps):
    total = 0.0
    try:
        for step in range(steps):
            loss = nll()
            opt.zero_grad()
            loss.backward()
            opt.step()
            total += loss.item()
    except RuntimeError:
        notes.append(('failed', total))
        return total
    return total


def fit_finally(steps):
    total = 0.0
    try:
        for step in range(steps):
            loss = nll()
            opt.zero_grad()
            loss.backward()
            opt.step()
            total += loss.item()
    finally:
        notes.append(('finally', total))


def run_all():
    count = 0
    for step in range(50):
        loss = nll()
        opt.zero_grad()
        loss.backward()
        opt.step()
        count += loss.item()
    return count


r1 = fit(40)
with torch.no_grad():
    log_noise.fill_(-2.0)
try:
    fit_finally(40)
except RuntimeError:
    notes.append('caught')
with torch.no_grad():
    log_noise.fill_(-2.0)
try:
    r3 = run_all()
except RuntimeError:
    r3 = None
print(notes)
print(r1, round(r1, 4), r3)
