# corpus: runnable
# Red team 40 (blind): DP-SGD style per-sample gradients with `torch.func.functional_call`, `vmap` and
# `grad`. The per-sample loss function writes a leaky ReLU by hand and loops over parameters; the training
# loop clips per-sample gradients, accumulates the loss as a tensor (`epoch_loss += loss`), keeps the
# per-sample norms as floats, and evaluates without `no_grad` through `functional_call`.
import torch
import torch.nn as nn
from torch.func import functional_call, grad, vmap

torch.manual_seed(44)
torch.set_num_threads(1)
device = "cuda" if torch.cuda.is_available() else "cpu"

model = nn.Sequential(nn.Linear(4, 8), nn.Linear(8, 2)).to(device)
params = {k: v.detach() for k, v in model.named_parameters()}


def forward(p: dict, x: torch.Tensor) -> torch.Tensor:
    h = functional_call(model[0], {"weight": p["0.weight"], "bias": p["0.bias"]}, (x,))
    h = torch.where(h > 0, h, 0.05 * h)
    return functional_call(model[1], {"weight": p["1.weight"], "bias": p["1.bias"]}, (h,))


def sample_loss(p: dict, x: torch.Tensor, y: torch.Tensor) -> torch.Tensor:
    return nn.functional.cross_entropy(forward(p, x[None]), y[None])


per_sample_grads = vmap(grad(sample_loss), in_dims=(None, 0, 0))
x = torch.randn(64, 4, device=device)
y = (x.sum(1) > 0).long()
clip, lr, sigma = 1.0, 0.5, 0.1
noise_gen = torch.Generator(device=device).manual_seed(7)
for epoch in range(3):
    epoch_loss = 0.0
    norms = []
    for i in range(0, 64, 16):
        xb, yb = x[i : i + 16], y[i : i + 16]
        g = per_sample_grads(params, xb, yb)
        flat = torch.cat([v.reshape(16, -1) for v in g.values()], dim=1)
        n = flat.norm(dim=1)
        for v in n:
            norms.append(v.item())
        factor = (clip / (n + 1e-6)).clamp(max=1.0)
        for k in params:
            clipped = (g[k] * factor.view(-1, *[1] * (g[k].dim() - 1))).sum(0)
            noise = torch.randn(clipped.shape, generator=noise_gen, device=device) * sigma * clip
            params[k] = params[k] - lr * (clipped + noise) / 16
        loss = nn.functional.cross_entropy(forward(params, xb), yb)
        epoch_loss += loss
    print(epoch, f"{epoch_loss.item():.15f}", epoch_loss.requires_grad, f"{sum(norms):.12f}", len(norms))
correct = 0
for i in range(0, 64, 32):
    logits = forward(params, x[i : i + 32])
    correct += (logits.argmax(1) == y[i : i + 32]).sum().item()
print("acc", correct, logits.requires_grad)
