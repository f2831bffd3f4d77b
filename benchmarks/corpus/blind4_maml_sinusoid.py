# corpus: runnable
"""MAML on sinusoid regression (Finn et al.), with a functional MLP: tasks sampled with
NumPy per meta-batch, one inner gradient step with create_graph=True, the meta-loss summed
over tasks and back-propagated; meta-testing adapts to new tasks, so it needs gradients
although it is an evaluation."""
import numpy as np
import torch
import torch.nn.functional as F

rng = np.random.RandomState(0)
torch.manual_seed(0)
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
K, META_BATCH, INNER_LR = 10, 4, 0.01


def init_params():
    shapes = [(40, 1), (40,), (40, 40), (40,), (1, 40), (1,)]
    params = []
    for s in shapes:
        w = torch.empty(s, device=device)
        if len(s) == 2:
            torch.nn.init.kaiming_uniform_(w, a=5 ** 0.5)
        else:
            torch.nn.init.zeros_(w)
        params.append(w.requires_grad_())
    return params


def forward(x, p):
    x = F.relu(F.linear(x, p[0], p[1]))
    x = F.relu(F.linear(x, p[2], p[3]))
    return F.linear(x, p[4], p[5])


def sample_task():
    amp, phase = rng.uniform(0.1, 5.0), rng.uniform(0, np.pi)

    def draw(n):
        x = rng.uniform(-5, 5, (n, 1)).astype(np.float32)
        return torch.from_numpy(x).to(device), torch.from_numpy((amp * np.sin(x - phase)).astype(np.float32)).to(device)  # paef: ok pageable-transfer

    return draw


def adapt(params, x, y, steps=1, create_graph=True):
    fast = params
    for _ in range(steps):
        loss = F.mse_loss(forward(x, fast), y)
        grads = torch.autograd.grad(loss, fast, create_graph=create_graph)
        fast = [w - INNER_LR * g for w, g in zip(fast, grads)]
    return fast


params = init_params()
meta_opt = torch.optim.Adam(params, lr=1e-3)
for it in range(300):
    meta_loss = 0.0
    for _ in range(META_BATCH):
        draw = sample_task()
        xs, ys = draw(K)
        xq, yq = draw(K)
        fast = adapt(params, xs, ys)
        meta_loss = meta_loss + F.mse_loss(forward(xq, fast), yq)
    meta_loss = meta_loss / META_BATCH
    meta_opt.zero_grad()
    meta_loss.backward()
    meta_opt.step()
    if it % 100 == 0:
        print(f"it {it} meta loss {meta_loss.item():.4f}")

test_losses = []
for _ in range(20):  # paef: refuse eval-without-no-grad
    draw = sample_task()
    xs, ys = draw(K)
    xq, yq = draw(50)
    fast = adapt(params, xs, ys, steps=5, create_graph=False)
    test_losses.append(F.mse_loss(forward(xq, fast), yq).item())  # paef: expect host-sync
print(f"meta-test mse after 5 steps {np.mean(test_losses):.4f}")
