# corpus: runnable
"""Plain DataLoader (pageable memory) feeding blocking copies to the device."""
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset

torch.manual_seed(0)
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")

train_set = TensorDataset(torch.randn(320, 16), torch.randn(320, 2))
train_loader = DataLoader(train_set, batch_size=32, shuffle=True)  # paef: ok pageable-transfer
net = nn.Sequential(nn.Linear(16, 32), nn.ReLU(), nn.Linear(32, 2)).to(device)
opt = torch.optim.Adam(net.parameters(), lr=5e-3)

for epoch in range(3):
    total = torch.zeros((), device=device)
    for features, targets in train_loader:
        features = features.to(device)  # paef: ok pageable-transfer
        targets = targets.to(device)  # paef: ok pageable-transfer
        loss = nn.functional.mse_loss(net(features), targets)
        opt.zero_grad()
        loss.backward()
        opt.step()
        total += loss.detach()
    print(f"epoch {epoch} loss {total.item() / len(train_loader):.4f}")
