# corpus: runnable
"""A small CNN trained by an Engine object from another module; the loaders are built here and
handed to it, as many tutorial repositories split main.py and engine.py."""
import torch
import torch.nn as nn
from torch.utils.data import DataLoader

from data import make_split
from engine import Engine

torch.manual_seed(0)
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")

train_loader = DataLoader(make_split(256, 0), batch_size=32, shuffle=True)  # paef: ok pageable-transfer
test_loader = DataLoader(make_split(64, 1), batch_size=64, pin_memory=torch.cuda.is_available())
model = nn.Sequential(nn.Conv2d(1, 8, 3, padding=1), nn.ReLU(), nn.Flatten(), nn.Linear(8 * 64, 2)).to(device)
optimizer = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)
engine = Engine(model, optimizer, nn.CrossEntropyLoss(), train_loader, test_loader, device)
for epoch in range(3):
    loss = engine.train_epoch()
    acc = engine.test()
    print(f"epoch {epoch} loss {loss:.4f} acc {acc:.3f}")
