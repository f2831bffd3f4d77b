# corpus: runnable
# Red team 51 probe (NOT blind: written after first contact, aimed at the host-sync running-total proof):
# the running total is read INSIDE the loop only through the namespace, never by its name: a log line
# formatted with `str.format_map(locals())`, `'%(total)s' % vars()`, `string.Template(...).substitute(locals())`
# inside a function, and a watch helper reading `globals()`; a list of `.item()` values is dumped to JSON
# through `vars()` after its conversion to a tensor.
import json
import string

import torch
import torch.nn as nn

torch.manual_seed(5111)
torch.set_num_threads(1)
device = 'cuda' if torch.cuda.is_available() else 'cpu'

g = torch.Generator().manual_seed(61)
X = torch.randn(40, 3, generator=g)
Y = X.sum(1, keepdim=True) - 0.5 * X[:, :1] ** 2
model = nn.Sequential(nn.Linear(3, 8), nn.Tanh(), nn.Linear(8, 1)).to(device)
opt = torch.optim.SGD(model.parameters(), lr=0.05)
FMT = 'step {step} running {total}'


def train_step(i):
    loss = nn.functional.mse_loss(model(X[i:i + 8].to(device)), Y[i:i + 8].to(device))
    opt.zero_grad()
    loss.backward()
    opt.step()
    return loss


# 1. str.format_map(locals())
total = 0.0
for step, i in enumerate(range(0, 40, 8)):
    loss = train_step(i)
    total += loss.item()
    if step % 2 == 0:
        print(FMT.format_map(locals()))
print('1:', total)

# 2. '%(name)s' % vars()
running = 0.0
for step, i in enumerate(range(0, 40, 8)):
    loss = train_step(i)
    running += loss.item()
    print('step %(step)d running %(running)s' % vars())
print('2:', running)


# 3. string.Template inside a function
def epoch():
    acc = 0.0
    for step, i in enumerate(range(0, 40, 8)):
        loss = train_step(i)
        acc += loss.item()
        print(string.Template('step $step acc $acc').substitute(locals()))
    return acc


print('3:', epoch())

# 4. a watch helper reading the module namespace
WATCH = ('epoch_sum',)


def watch():
    print({k: v for k, v in globals().items() if k in WATCH})


epoch_sum = 0.0
for i in range(0, 40, 8):
    loss = train_step(i)
    epoch_sum += loss.item()
    watch()
print('4:', epoch_sum)

# 5. a list of .item() values dumped through vars() after its conversion
seen_losses = []
for i in range(0, 40, 8):
    loss = train_step(i)
    seen_losses.append(loss.item())
spread = torch.tensor(seen_losses).std()
print('5:', f'{spread.item():.10f}', json.dumps({k: v for k, v in vars().items() if k == 'seen_losses'}))
