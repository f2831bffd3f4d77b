# corpus: runnable
# Red team 40 (blind): a model wrapped in `nn.DataParallel` whose properties build values from a step
# counter that `forward` advances (a temperature, a number of active bins); the training loop builds
# factories from those properties every step (`torch.full`, `torch.linspace`) and from an `lru_cache`d
# helper keyed by the step's parity.
import functools

import torch
import torch.nn as nn

torch.manual_seed(46)
torch.set_num_threads(1)
device = "cuda" if torch.cuda.is_available() else "cpu"


class Annealed(nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.fc = nn.Linear(6, 6)
        self.steps = 0

    @property
    def temperature(self) -> float:
        return 1.0 / (1.0 + 0.5 * self.steps)

    @property
    def n_bins(self) -> int:
        return 4 + self.steps % 3

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        self.steps += 1
        return self.fc(x)


@functools.lru_cache(maxsize=None)
def offsets(parity: int) -> torch.Tensor:
    return torch.tensor([0.0, 0.5]).to(device) if parity else torch.tensor([0.25, 0.75]).to(device)


core = Annealed().to(device)
model = nn.DataParallel(core)
opt = torch.optim.SGD(model.parameters(), lr=0.05)
x = torch.randn(24, 6, device=device)
for step in range(6):
    logits = model(x[step * 4 : step * 4 + 4])
    temp = torch.full((1,), core.temperature, device=device)
    edges = torch.linspace(-1.0, 1.0, core.n_bins, device=device)
    probs = (logits / temp).softmax(-1)
    hist = torch.bucketize(logits.detach().clamp(-1, 1), edges).float().mean()
    loss = -(probs * probs.clamp_min(1e-6).log()).sum(-1).mean() + offsets(step % 2).sum() * 0.01
    opt.zero_grad()
    loss.backward()
    opt.step()
    print(step, f"{temp.item():.10f}", tuple(edges.shape), f"{hist.item():.10f}", f"{loss.item():.15f}")
print(core.steps, offsets.cache_info().hits, offsets(0) is offsets(0))
