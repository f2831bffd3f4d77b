# corpus: runnable
# Red team 50 (blind): weights that change without `optimizer.step()`. Evolution strategies write the weights
# back with `vector_to_parameters`; SAM perturbs the weights and restores them by rebinding `p.data`; Lookahead
# pulls the fast weights to the slow ones with `load_state_dict`. Each loop also builds per-step tensors from
# the weights (anchors, snapshots, norms) that only these writes change.
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.nn.utils import parameters_to_vector, vector_to_parameters

torch.manual_seed(5002)
torch.set_num_threads(1)
device = 'cuda' if torch.cuda.is_available() else 'cpu'

X = torch.randn(48, 4)
Y = (X[:, :1] - 2 * X[:, 1:2]).tanh()

# --- evolution strategies: no backward, no optimizer
net = nn.Linear(4, 1).to(device)
gen = torch.Generator().manual_seed(7)
sigma, lr_es = 0.1, 0.05
for it in range(8):
    theta = parameters_to_vector(net.parameters()).detach().cpu()
    anchor = net.weight.detach().clone()
    scores = []
    noises = []
    for k in range(6):
        eps = torch.randn(theta.shape, generator=gen)
        vector_to_parameters((theta + sigma * eps).to(device), net.parameters())
        with torch.no_grad():
            scores.append(-F.mse_loss(net(X.to(device)), Y.to(device)).item())
        noises.append(eps)
    s = torch.tensor(scores)
    s = (s - s.mean()) / (s.std() + 1e-8)
    step_vec = (torch.stack(noises) * s[:, None]).mean(0) * lr_es / sigma
    vector_to_parameters((theta + step_vec).to(device), net.parameters())
    drift = (net.weight.detach() - anchor).abs().sum().item()
    print('es', it, f'{max(scores):.10f}', f'{drift:.10f}')

# --- SAM: perturb, second pass, restore by rebinding .data
model = nn.Sequential(nn.Linear(4, 6), nn.Tanh(), nn.Linear(6, 1)).to(device)
base = torch.optim.SGD(model.parameters(), lr=0.1)
rho = 0.05
for it in range(6):
    xb, yb = X[it * 8:(it + 1) * 8].to(device), Y[it * 8:(it + 1) * 8].to(device)
    loss = F.mse_loss(model(xb), yb)
    base.zero_grad()
    loss.backward()
    saved = {}
    with torch.no_grad():
        gnorm = torch.norm(torch.stack([p.grad.norm(2) for p in model.parameters()]), 2)
        for p in model.parameters():
            saved[p] = p.data.clone()
            p.add_(p.grad * (rho / (gnorm + 1e-12)))
    loss2 = F.mse_loss(model(xb), yb)
    base.zero_grad()
    loss2.backward()
    for p in model.parameters():
        p.data = saved[p]
    first_row = torch.tensor(model[0].weight[0].tolist())
    base.step()
    print('sam', it, f'{loss.item():.10f}', f'{loss2.item():.10f}', f'{first_row.sum().item():.10f}')

# --- Lookahead: the slow copy is loaded back into the fast model every k steps
fast = nn.Linear(4, 1).to(device)
slow = nn.Linear(4, 1).to(device)
slow.load_state_dict(fast.state_dict())
inner = torch.optim.SGD(fast.parameters(), lr=0.2)
for it in range(9):
    xb, yb = X[(it % 6) * 8:(it % 6 + 1) * 8].to(device), Y[(it % 6) * 8:(it % 6 + 1) * 8].to(device)
    ref_bias = slow.bias.detach().clone()
    loss = F.mse_loss(fast(xb), yb)
    inner.zero_grad()
    loss.backward()
    inner.step()
    if (it + 1) % 3 == 0:
        with torch.no_grad():
            for ps, pf in zip(slow.parameters(), fast.parameters()):
                ps.add_(pf - ps, alpha=0.5)
        fast.load_state_dict(slow.state_dict())
    print('lookahead', it, f'{loss.item():.10f}', f'{ref_bias.item():.10f}', f'{fast.bias.item():.10f}')
