# corpus: runnable
# Red team 44 (blind): an ignite-style engine; handlers registered with @engine.on(...) anneal the class
# weights' floor and the temperature read by the loop, fired from inside the inner loop; a pre-hook
# masks the attention-style mask in place.
import torch
import torch.nn as nn
import torch.nn.functional as F

from engine import Engine
from handlers import Schedule, attach_meter

torch.manual_seed(0)
torch.set_num_threads(1)
device = 'cuda' if torch.cuda.is_available() else 'cpu'

C, D, B = 4, 6, 8
sched = Schedule(floor=1.0, temperature=2.0)
limits = {"clip": 1.0}
engine = Engine()
meter = []
attach_meter(engine, meter)


@engine.on("iteration_completed", every=3)
def anneal(eng):
    sched.anneal(eng)


@engine.on("iteration_completed", every=4)
def tighten(eng):
    limits["clip"] = limits["clip"] * 0.5


class Pooler(nn.Module):
    def __init__(self):
        super().__init__()
        self.proj = nn.Linear(D, C)
        self.calls = 0

    def forward(self, x, mask):
        pooled = (x * mask.unsqueeze(-1)).sum(1) / mask.sum(1, keepdim=True).clamp_min(1.0)
        return self.proj(pooled)


def drop_tokens(module, args):
    x, mask = args
    module.calls += 1
    mask[:, module.calls % 5] = 0.0  # word dropout, written straight into the caller's mask
    return None


model = Pooler().to(device)
model.register_forward_pre_hook(drop_tokens)
opt = torch.optim.SGD(model.parameters(), lr=0.3)
g = torch.Generator().manual_seed(5)
data = [(torch.randn(B, 5, D, generator=g).to(device), torch.randint(0, C, (B,), generator=g).to(device)) for _ in range(6)]

for epoch in range(2):
    engine.state.epoch = epoch
    for x, y in data:
        weights = torch.full((C,), sched.floor, device=device)
        weights[0] = 1.0
        mask = torch.ones(B, 5, device=device)
        logits = model(x, mask) / sched.temperature
        loss = F.cross_entropy(logits, y, weight=weights)
        opt.zero_grad()
        loss.backward()
        bound = torch.tensor(limits["clip"])
        gn = torch.nn.utils.clip_grad_norm_(model.parameters(), bound.item())
        opt.step()
        engine.state.iteration += 1
        engine.state.output = round(loss.item(), 10)
        engine.fire("iteration_completed")
        print(epoch, engine.state.iteration, "loss %.10f" % loss.item(), "gn %.8f" % gn.item(),
              "mask kept", int(mask.sum().item()), "floor %.6f" % weights[1].item())
print("meter", meter[-3:], len(meter))
print("weight %.10f" % model.proj.weight.detach().cpu().sum().item(), "temp", sched.temperature, limits)
