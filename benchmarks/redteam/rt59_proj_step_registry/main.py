# corpus: runnable
# Red team 59 (blind): a training driver that looks its steps up by name in a registry of callables (train, eval,
# adapt). A phase plan runs training on the source domain, evaluation on a shifted domain, test-time adaptation
# (entropy minimisation on BatchNorm's affine parameters, model in eval mode so the running stats stay frozen),
# then evaluation again. A monitor records BatchNorm output means with .item() from forward hooks and gradient
# norms from full backward hooks. The phase loop switches the model to eval mode for every phase but training.
import functools

import torch

from hooks import Monitor
from registry import STEPS, Steps

torch.manual_seed(5906)
torch.set_num_threads(1)
device = 'cuda' if torch.cuda.is_available() else 'cpu'

N, D, C = 480, 12, 3
protos = torch.randn(C, D) * 1.5
ys = torch.randint(0, C, (N,))
xs_src = protos[ys] + torch.randn(N, D)
shift = torch.randn(D)
xs_tgt = (protos[ys] + torch.randn(N, D)) * 2.5 + 3 * shift
xs_src, xs_tgt, ys = xs_src.to(device), xs_tgt.to(device), ys.to(device)

model = torch.nn.Sequential(
    torch.nn.Linear(D, 32), torch.nn.BatchNorm1d(32), torch.nn.ReLU(),
    torch.nn.Linear(32, 32), torch.nn.BatchNorm1d(32), torch.nn.ReLU(),
    torch.nn.Linear(32, C)).to(device)
ctx = Steps(model)
monitor = Monitor(model)


def batches(x, y, bs):
    return [(x[i:i + bs], y[i:i + bs]) for i in range(0, len(x), bs)]


plan = [("train", xs_src, 3), ("eval", xs_tgt, 1), ("adapt", xs_tgt, 2), ("eval", xs_tgt, 1)]
report = []
for phase, data, rounds in plan:
    step = STEPS[phase]
    if phase == "train":
        model.train()
    else:
        model.eval()
    total = 0.0
    for r in range(rounds):
        for xb, yb in batches(data, ys, 48):
            total += step(ctx, model, xb, yb)
    report.append((phase, round(total / rounds, 4)))

# a second adaptation pass driven through map over a partial-bound step
model.eval()
adapt = functools.partial(STEPS["adapt"], ctx, model)
hits = list(map(lambda b: adapt(*b), batches(xs_tgt, ys, 96)))
final = sum(map(lambda b: STEPS["eval"](ctx, model, *b), batches(xs_tgt, ys, 96)))

print("report", report)
print("map adapt", hits, "final", final)
print("monitor", monitor.summary())
print("checksum", round(sum(p.detach().double().sum().item() for p in model.parameters()), 4))
