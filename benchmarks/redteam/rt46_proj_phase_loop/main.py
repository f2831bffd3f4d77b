# corpus: runnable
# Red team 46 (blind): the classic `for phase in ('train', 'val')` loop with `torch.set_grad_enabled(phase ==
# 'train')`, a normaliser (layers.py) that adapts whenever grad mode is on, a validation helper in metrics.py
# without no_grad, and a precision switch (settings.py) that sets the default dtype to float64 inside the
# epoch loop, after which the loop's factories make float64 tensors.
import torch
import torch.nn as nn
import torch.nn.functional as F

from layers import AdaptiveNorm
from metrics import validate
from settings import use_double

torch.manual_seed(4)
torch.set_num_threads(1)
device = 'cuda' if torch.cuda.is_available() else 'cpu'

xs = [torch.randn(10, 5) + 0.5 * i for i in range(4)]
ys = [x[:, :1] * 2 - x[:, 1:2] for x in xs]
model = nn.Sequential(AdaptiveNorm(5), nn.Linear(5, 8), nn.Tanh(), nn.Linear(8, 1)).to(device)
opt = torch.optim.SGD(model.parameters(), lr=0.02)

for epoch in range(4):
    if epoch == 2:
        model = use_double(model)
        xs = [x.double() for x in xs]
        ys = [y.double() for y in ys]
    for phase in ('train', 'val'):
        model.train() if phase == 'train' else model.eval()
        running = 0.0
        with torch.set_grad_enabled(phase == 'train'):
            for x, y in zip(xs, ys):
                x, y = x.to(device), y.to(device)
                weights = torch.tensor([1.0, 0.9, 0.81, 0.729, 0.6561, 0.59049, 0.531441, 0.4782969, 0.43046721,
                                        0.387420489]).to(device)
                loss = (weights * (model(x) - y).squeeze(1) ** 2).sum()
                if phase == 'train':
                    opt.zero_grad()
                    loss.backward()
                    opt.step()
                running += loss.item()
        print(epoch, phase, '%.12f' % running, weights.dtype)
    total, hits = validate(model, xs, ys, device)
    print('validate %.12f' % total, hits, 'norm updates', int(model[0].updates))
print('mean', [round(v, 10) for v in model[0].mean.tolist()])
