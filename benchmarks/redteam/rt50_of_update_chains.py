# corpus: runnable
# Red team 50 (blind): element-wise chains living inside the update. Non-negative matrix factorisation by
# projected gradient (the projection written as `torch.where(w > 0, w, 0)` and as a product with a mask, the
# weights changed through `.copy_`), a policy-gradient bandit whose softmax and log-softmax are written out and
# whose logits are updated by hand, a hand-written tanh-GELU and leaky ReLU in a model trained by a hand SGD with
# gradient centralisation, and a hinge on the drift from an anchor written with `torch.maximum`.
import math

import torch
import torch.nn.functional as F

torch.manual_seed(5005)
torch.set_num_threads(1)
device = 'cuda' if torch.cuda.is_available() else 'cpu'

# --- NMF by projected gradient
V = torch.rand(12, 10).to(device)
W = torch.rand(12, 3).to(device)
H = torch.rand(3, 10).to(device)
eta = 0.02
for it in range(20):
    R = W @ H - V
    gW = R @ H.T
    gH = W.T @ R
    W.copy_(W - eta * gW)
    W.copy_(torch.where(W > 0, W, 0))
    H.sub_(eta * gH)
    H = H * (H > 0)
    if it % 5 == 4:
        print('nmf', it, f'{(R ** 2).sum().item():.10f}', int((W == 0).sum()), int((H == 0).sum()),
              f'{(1 / W.flatten()[:4]).tolist()}')

# --- softmax bandit updated by hand
logits = torch.zeros(4, device=device)
payoff = torch.tensor([0.1, 0.5, 0.2, 0.9], device=device)
g = torch.Generator().manual_seed(11)
baseline = 0.0
for t in range(25):
    z = logits - logits.max()
    probs = torch.exp(z) / torch.exp(z).sum()
    logp = z - torch.log(torch.exp(z).sum())
    a = torch.multinomial(probs.cpu(), 1, generator=g).item()
    r = payoff[a].item() + 0.01 * t
    baseline = 0.9 * baseline + 0.1 * r
    grad_logp = -probs
    grad_logp[a] += 1
    logits += 0.5 * (r - baseline) * grad_logp
    if t % 6 == 5:
        print('bandit', t, a, [f'{v:.10f}' for v in probs.tolist()], f'{logp[a].item():.10f}')

# --- a tiny MLP with hand-written activations, trained by hand SGD with gradient centralisation
X = torch.randn(40, 5)
Y = torch.sin(X[:, :1] * 2)
W1 = (torch.randn(5, 16) * 0.4).to(device).requires_grad_()
W2 = (torch.randn(16, 1) * 0.4).to(device).requires_grad_()
anchor = W1.detach().clone()


def gelu_tanh(x):
    return 0.5 * x * (1 + torch.tanh(math.sqrt(2 / math.pi) * (x + 0.044715 * x ** 3)))


def leaky(x):
    return torch.where(x > 0, x, 0.1 * x)


for it in range(12):
    xb, yb = X[(it % 4) * 10:(it % 4 + 1) * 10].to(device), Y[(it % 4) * 10:(it % 4 + 1) * 10].to(device)
    h = leaky(gelu_tanh(xb @ W1))
    drift = torch.maximum(W1 - anchor, torch.zeros_like(W1)).sum()
    loss = F.mse_loss(h @ W2, yb) + 0.01 * drift
    loss.backward()
    with torch.no_grad():
        for P in (W1, W2):
            g_c = P.grad - P.grad.mean(dim=0, keepdim=True) if P.shape[0] > 1 else P.grad
            P -= 0.1 * g_c
            P.grad = None
    print('mlp', it, f'{loss.item():.10f}', f'{drift.item():.10f}', f'{W1.sum().item():.10f}')
