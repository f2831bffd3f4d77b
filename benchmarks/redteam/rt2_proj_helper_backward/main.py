# corpus: runnable
import torch
from torch import nn
from helpers import Booster

torch.manual_seed(0)
booster = Booster()
net = nn.Linear(6, 3)
opt = torch.optim.SGD(net.parameters(), lr=0.1)
train_batches = [(torch.randn(4, 6), torch.randint(0, 3, (4,))) for _ in range(3)]
dev_batches = [(torch.randn(4, 6), torch.randint(0, 3, (4,))) for _ in range(2)]
log = []
for epoch in range(3):
    net.train()
    for inputs, labels in train_batches:
        logits = net(inputs)
        loss = nn.functional.cross_entropy(logits, labels)
        booster.backward(loss)
        opt.step()
        opt.zero_grad()
    net.eval()
    for inputs, labels in dev_batches:
        logits = net(inputs)
        log.append(round(booster.gather(logits).sum().item(), 4))
print(log, [round(v, 4) for v in net.weight.flatten().tolist()])
