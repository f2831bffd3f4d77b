# corpus: runnable
# `torch.manual_seed` inside the loop, then constants and draws: hoisting a draw-free constant is fine, but
# a `torch.Generator` re-seeded per step, `torch.random.fork_rng`, `torch.set_rng_state` restored
# per step and a helper that seeds make the draws depend on their place.
import torch

torch.manual_seed(0)
torch.set_num_threads(1)
g = torch.Generator()
state = torch.get_rng_state()
out = []
for step in range(3):
    torch.set_rng_state(state)
    base = torch.ones(2)
    noise = torch.rand(2)
    out.append((base + noise).tolist())
print("set_rng_state", out)


def reseed(s):
    torch.manual_seed(s)


vals = []
for step in range(3):
    reseed(7)
    w = torch.randn(2)
    x = torch.ones(2) * 2
    vals.append((w + x).tolist())
print("helper seed", vals)

forks = []
for step in range(3):
    with torch.random.fork_rng():
        torch.manual_seed(step)
        u = torch.rand(2)
    v = torch.rand(2)
    forks.append((u.tolist(), v.tolist()))
print("fork", forks)
