# corpus: runnable
# Red team 46 PROBE (not blind, written after first contact): the default dtype is switched to float64 by
# the entry script, inside a function, AFTER importing a module whose helper rebuilds a tensor from
# `.item()`s; the module itself never calls a setter, so its own unit sees no change of default.
import torch
import torch.nn as nn

from stats import summarize

torch.manual_seed(9)
torch.set_num_threads(1)
device = 'cuda' if torch.cuda.is_available() else 'cpu'


def use_double():
    torch.set_default_dtype(torch.float64)


model = nn.Linear(3, 2).to(device)
batches = [torch.randn(5, 3) for _ in range(3)]
print('float32 run %.12f' % summarize(model, batches, device))
use_double()
print('float64 run %.12f' % summarize(model, batches, device))
