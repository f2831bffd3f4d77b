# corpus: runnable
# Hand-written activations whose operand is itself a call: a batch-norm layer in training mode
# (each call updates its running statistics), a dropout (each call draws a new mask), a
# `randint` (each spelling is a new draw). The hand-written form calls the operand three times;
# the fused one once.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_num_threads(1)


class Block(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(4, 4)
        self.bn = nn.BatchNorm1d(4)

    def forward(self, x):
        h = self.fc(x)
        return torch.where(self.bn(h) > 0, self.bn(h), 0.2 * self.bn(h))


block = Block()
opt = torch.optim.SGD(block.parameters(), lr=0.1)
for step in range(3):
    x = torch.randn(8, 4)
    loss = block(x).pow(2).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
block.eval()
print("bn running mean", block.bn.running_mean)
print("eval out", block(torch.ones(2, 4)))

h = torch.randn(3, 5)
act = torch.where(F.dropout(h, 0.5) > 0, F.dropout(h, 0.5), 0.1 * F.dropout(h, 0.5))
print("dropout act", act)
print("next draw", torch.rand(2))

shift = torch.where(torch.randint(-3, 4, (6,)) > 0, torch.randint(-3, 4, (6,)), 0)
print("shifted counts", shift)
print("after", torch.randint(0, 10, (3,)))
