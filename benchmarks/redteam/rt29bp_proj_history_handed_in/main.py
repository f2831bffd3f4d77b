# corpus: runnable
# Red team 29b probe (not blind): loops.py appends each step's loss to the list main.py hands in;
# main.py prints the last one as a tensor (its text shows `grad_fn=<...>` only with the graph).
import torch
import torch.nn as nn

from loops import train_epoch

torch.manual_seed(0)
torch.set_num_threads(1)
g = torch.Generator().manual_seed(3)
model = nn.Linear(3, 1)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
loader = [(torch.randn(4, 3, generator=g), torch.randn(4, 1, generator=g)) for _ in range(3)]
history = []
for epoch in range(2):
    train_epoch(model, loader, opt, history)
print(history[-1])
print([round(h.item(), 5) for h in history])
