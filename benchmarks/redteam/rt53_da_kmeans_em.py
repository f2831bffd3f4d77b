# corpus: runnable
# Red team 53 (blind): k-means written in torch (k-means++ seeding with a host-side draw, Lloyd steps until
# the inertia read by .item() stops moving, an empty cluster reseeded from the farthest point), then a
# diagonal Gaussian mixture fitted by EM from the k-means solution (float64 throughout; the log-likelihood
# per iteration kept as Python floats, the responsibilities' column sums read per cluster into a dict keyed
# by cluster id but filled from the largest cluster down).
import math

import torch

torch.manual_seed(5305)
torch.set_num_threads(1)
device = 'cuda' if torch.cuda.is_available() else 'cpu'

g = torch.Generator().manual_seed(535)
centres = torch.tensor([[0.0, 0.0], [3.0, 0.5], [0.5, 3.5], [3.5, 3.0]])
X = torch.cat([c + 0.6 * torch.randn(60, 2, generator=g) for c in centres]).to(device).double()
k = 4


def kmeanspp(x, k, gen):
    first = torch.randint(0, x.shape[0], (1,), generator=gen).item()
    chosen = [first]
    for _ in range(k - 1):
        d = torch.cdist(x, x[chosen]).min(1).values ** 2
        probs = (d / d.sum()).cpu()
        chosen.append(torch.multinomial(probs, 1, generator=gen).item())
    return x[chosen].clone()


C = kmeanspp(X, k, g)
inertias = []
prev = math.inf
for it in range(50):
    d = torch.cdist(X, C)
    assign = d.argmin(1)
    inertia = (d.gather(1, assign[:, None]) ** 2).sum().item()
    inertias.append(inertia)
    for j in range(k):
        members = X[assign == j]
        if members.shape[0] == 0:
            far = d.min(1).values.argmax()
            C[j] = X[far]
        else:
            C[j] = members.mean(0)
    if prev - inertia < 1e-9:
        break
    prev = inertia

sizes = torch.bincount(assign, minlength=k)
order = sizes.argsort(descending=True).tolist()
weights = {}
for j in order:
    weights[j] = sizes[j].item() / X.shape[0]

mu = C.clone()
var = torch.ones(k, 2, dtype=torch.float64, device=device) * X.var(0)
pi = torch.tensor([weights[j] for j in range(k)], dtype=torch.float64, device=device)
lls = []
for it in range(25):
    diff = X[:, None, :] - mu[None]
    logn = -0.5 * ((diff ** 2) / var + torch.log(2 * math.pi * var)).sum(-1)
    logw = logn + torch.log(pi)
    ll = torch.logsumexp(logw, 1)
    lls.append(ll.sum().item())
    resp = torch.exp(logw - ll[:, None])
    nk = resp.sum(0)
    mass = {}
    for j in order:
        mass[j] = nk[j].item()
    mu = (resp.T @ X) / nk[:, None]
    var = (resp.T @ (X ** 2)) / nk[:, None] - mu ** 2 + 1e-6
    pi = torch.tensor(list(mass.values()), dtype=torch.float64, device=device) / X.shape[0]
    pi = pi[torch.tensor(order, device=device).argsort()]
    if len(lls) > 1 and abs(lls[-1] - lls[-2]) < 1e-8:
        break

ll_t = torch.tensor(lls)
print('kmeans iters', len(inertias), [round(v, 6) for v in inertias[:4]], round(inertias[-1], 6))
print('weights', [(j, round(w, 6)) for j, w in weights.items()])
print('em iters', len(lls), round(ll_t[-1].item(), 6), round(ll_t.diff().min().item(), 9))
print('mu', [round(v, 6) for v in mu.flatten().tolist()])
print('pi', [round(v, 6) for v in pi.tolist()], 'mass order', list(mass.keys()))
