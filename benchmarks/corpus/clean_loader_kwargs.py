# corpus: runnable
"""Loader options collected in a dict (pin_memory included) and passed with **."""
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset

torch.manual_seed(0)
use_cuda = torch.cuda.is_available()
device = torch.device("cuda" if use_cuda else "cpu")

train_kwargs = {"batch_size": 16, "shuffle": True}
cuda_kwargs = {"num_workers": 1, "pin_memory": True}
if use_cuda:
    train_kwargs.update(cuda_kwargs)

dataset = TensorDataset(torch.randn(128, 10), torch.randint(0, 3, (128,)))
train_loader = DataLoader(dataset, **train_kwargs)
model = nn.Linear(10, 3).to(device)
optimizer = torch.optim.Adam(model.parameters(), lr=0.01)


def train(model, device, loader, optimizer, epoch):
    model.train()
    for data, target in loader:
        data, target = data.to(device, non_blocking=True), target.to(device, non_blocking=True)
        optimizer.zero_grad()
        loss = nn.functional.cross_entropy(model(data), target)
        loss.backward()
        optimizer.step()
    return loss.detach()


for epoch in range(1, 4):
    last = train(model, device, train_loader, optimizer, epoch)
    print(f"epoch {epoch} last loss {last.item():.4f}")
