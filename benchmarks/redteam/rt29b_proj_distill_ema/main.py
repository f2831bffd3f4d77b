# corpus: runnable
# Red team 29b, wave 1 (blind): a mean-teacher distillation project - models, helpers that
# change their arguments, the epoch and evaluation loops in engine.py, the driver here.
import torch

import engine
from models import DistillPair

torch.manual_seed(0)
torch.set_num_threads(1)
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
g = torch.Generator().manual_seed(17)
w = torch.randn(5, 3, generator=g)


def make(n):
    x = torch.randn(n, 5, generator=g)
    return x, (x @ w + 0.3 * torch.randn(n, 3, generator=g)).argmax(1)


train = [make(16) for _ in range(6)]
val = [make(16) for _ in range(2)]
pair = DistillPair(5, 3).to(device)
opt = torch.optim.SGD(pair.student.parameters(), lr=0.2, momentum=0.9)
for epoch in range(3):
    loss, kd = engine.train_one_epoch(pair, opt, train, device, 3)
    nll, agree = engine.evaluate(pair, val, device, 3)
    print(epoch, round(loss, 5), round(kd, 5), round(nll, 5), agree)
print("student", round(sum(p.double().abs().sum().item() for p in pair.student.parameters()), 6))
