# corpus: runnable
# An EMA teacher (mean-teacher / DINO style): a deep copy of the student with `requires_grad_(False)`,
# updated under `torch.no_grad()` after each step, evaluated in loops with and without `no_grad`,
# an EMA update inside an evaluation loop (batch-norm statistics refreshed with `train()`), and a
# teacher whose outputs are distilled into the student.
import copy

import torch
import torch.nn.functional as F
from torch import nn

torch.set_num_threads(1)
torch.manual_seed(0)
device = "cuda" if torch.cuda.is_available() else "cpu"


class EMA:
    def __init__(self, model, decay=0.9):
        self.module = copy.deepcopy(model).eval()
        self.module.requires_grad_(False)
        self.decay = decay
        self.updates = 0

    @torch.no_grad()
    def update(self, model):
        self.updates += 1
        for e, p in zip(self.module.parameters(), model.parameters()):
            e.mul_(self.decay).add_(p.detach(), alpha=1 - self.decay)
        for e, b in zip(self.module.buffers(), model.buffers()):
            e.copy_(b)


student = nn.Sequential(nn.Linear(8, 16), nn.BatchNorm1d(16), nn.ReLU(), nn.Linear(16, 4)).to(device)
ema = EMA(student)
opt = torch.optim.SGD(student.parameters(), lr=0.1)
data = [(torch.randn(16, 8), torch.randint(0, 4, (16,))) for _ in range(6)]

for epoch in range(2):
    student.train()
    for x, y in data:
        x, y = x.to(device), y.to(device)
        with torch.no_grad():
            soft = F.softmax(ema.module(x) / 2.0, dim=-1)
        logits = student(x)
        loss = F.cross_entropy(logits, y) + F.kl_div(F.log_softmax(logits / 2.0, -1), soft, reduction="batchmean")
        opt.zero_grad()
        loss.backward()
        opt.step()
        ema.update(student)

    student.eval()
    s_correct = 0
    t_correct = 0
    t_conf = []
    for x, y in data:
        x, y = x.to(device), y.to(device)
        s_correct += (student(x).argmax(-1) == y).sum().item()
        t_out = ema.module(x)
        t_correct += (t_out.argmax(-1) == y).sum().item()
        t_conf.append(t_out.softmax(-1).max(-1).values.mean())
    print(epoch, s_correct, t_correct, torch.stack(t_conf).mean().item(), ema.updates)

# refresh the teacher's batch-norm statistics on the data, then read them
ema.module.train()
for x, _ in data:
    ema.module(x.to(device))
ema.module.eval()
print("bn", ema.module[1].running_mean[:4].tolist(), ema.module[1].num_batches_tracked.item())

# an evaluation loop that also keeps moving the EMA
student.eval()
agree = 0
for x, y in data:
    x = x.to(device)
    s = student(x)
    ema.update(student)
    agree += (s.argmax(-1) == ema.module(x).argmax(-1)).sum().item()
print("agree", agree, ema.updates, s.requires_grad)
