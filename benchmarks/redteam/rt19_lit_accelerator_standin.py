# corpus: runnable
# accelerate-style training written against a small stand-in `Accelerator`: `accelerator.backward(loss)`,
# `accelerator.accumulate(model)` (a context manager that counts micro-steps), `accelerator.autocast()`,
# `accelerator.gather(t)`, a summed loss handed to `accelerator.backward`, an `accelerator.print` of
# a running total, and an evaluation loop gathering predictions.
import contextlib

import torch
from torch import nn

torch.set_num_threads(1)
torch.manual_seed(0)
device = "cuda" if torch.cuda.is_available() else "cpu"


class Accelerator:
    def __init__(self, gradient_accumulation_steps=1):
        self.device = device
        self.steps = gradient_accumulation_steps
        self.step = 0
        self.sync_gradients = True

    def prepare(self, *objs):
        return [o.to(self.device) if isinstance(o, nn.Module) else o for o in objs]

    def backward(self, loss):
        (loss / self.steps).backward()

    @contextlib.contextmanager
    def accumulate(self, model):
        self.step += 1
        self.sync_gradients = self.step % self.steps == 0
        yield

    def autocast(self):
        return torch.autocast(device_type="cpu", dtype=torch.bfloat16, enabled=False)

    def gather(self, t):
        return t.detach().clone()

    def print(self, *args):
        print("[acc]", *args)


accelerator = Accelerator(gradient_accumulation_steps=2)
model = nn.Sequential(nn.Linear(6, 16), nn.Tanh(), nn.Linear(16, 2))
opt = torch.optim.SGD(model.parameters(), lr=0.1)
model, opt = accelerator.prepare(model, opt)
data = [(torch.randn(10, 6), torch.randint(0, 2, (10,))) for _ in range(8)]
crit = nn.CrossEntropyLoss()

for epoch in range(2):
    total = 0.0
    pair = 0
    for x, y in data:
        x, y = x.to(device), y.to(device)
        with accelerator.accumulate(model):
            with accelerator.autocast():
                loss = crit(model(x), y)
            accelerator.backward(loss)
            pair = pair + loss
            if accelerator.sync_gradients:
                opt.step()
                opt.zero_grad()
                accelerator.print("pair", round(pair.item(), 6), pair.requires_grad)
                pair = 0
        total += loss.item()
    accelerator.print(epoch, repr(total))

# a summed loss handed to backward once per epoch
for epoch in range(2):
    summed = 0
    for x, y in data[:4]:
        x, y = x.to(device), y.to(device)
        summed += crit(model(x), y)
    opt.zero_grad()
    accelerator.backward(summed)
    opt.step()
    print("summed", round(summed.item(), 6))

model.eval()
preds = []
correct = 0
for x, y in data:
    logits = model(x.to(device))
    p = accelerator.gather(logits.argmax(-1))
    preds.append(p)
    correct += (p == y.to(device)).sum().item()
print(torch.cat(preds).tolist()[:10], correct, type(correct).__name__)
