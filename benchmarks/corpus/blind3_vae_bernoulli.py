# corpus: runnable
"""Variational autoencoder on synthetic binary 8x8 'digits', after the classic example:
reparameterisation, BCE + KL loss summed over the batch, per-epoch samples from the prior."""
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset

torch.manual_seed(0)
use_cuda = torch.cuda.is_available()
device = torch.device("cuda" if use_cuda else "cpu")
kwargs = {"num_workers": 1, "pin_memory": True} if use_cuda else {}

protos = (torch.rand(4, 64) > 0.5).float()
data = (protos[torch.randint(0, 4, (600,))] + (torch.rand(600, 64) < 0.05).float()).clamp(max=1)
train_loader = DataLoader(TensorDataset(data[:500]), batch_size=50, shuffle=True, **kwargs)
test_loader = DataLoader(TensorDataset(data[500:]), batch_size=50, shuffle=False, **kwargs)


class VAE(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(64, 32)
        self.fc21, self.fc22 = nn.Linear(32, 4), nn.Linear(32, 4)
        self.fc3, self.fc4 = nn.Linear(4, 32), nn.Linear(32, 64)

    def encode(self, x):
        h1 = F.relu(self.fc1(x))
        return self.fc21(h1), self.fc22(h1)

    def reparameterize(self, mu, logvar):
        std = torch.exp(0.5 * logvar)
        return mu + torch.randn_like(std) * std

    def decode(self, z):
        return torch.sigmoid(self.fc4(F.relu(self.fc3(z))))

    def forward(self, x):
        mu, logvar = self.encode(x.view(-1, 64))
        z = self.reparameterize(mu, logvar)
        return self.decode(z), mu, logvar


def loss_function(recon_x, x, mu, logvar):
    bce = F.binary_cross_entropy(recon_x, x.view(-1, 64), reduction="sum")
    kld = -0.5 * torch.sum(1 + logvar - mu.pow(2) - logvar.exp())
    return bce + kld


model = VAE().to(device)
optimizer = torch.optim.Adam(model.parameters(), lr=1e-2)


def train(epoch):
    model.train()
    train_loss = 0
    for batch_idx, (x,) in enumerate(train_loader):
        x = x.to(device)
        optimizer.zero_grad()
        recon, mu, logvar = model(x)
        loss = loss_function(recon, x, mu, logvar)
        loss.backward()
        train_loss += loss.item()  # paef: expect host-sync
        optimizer.step()
    print(f"====> Epoch: {epoch} Average loss: {train_loss / len(train_loader.dataset):.4f}")


def test(epoch):
    model.eval()
    test_loss = 0
    with torch.no_grad():
        for x, in test_loader:
            x = x.to(device)
            recon, mu, logvar = model(x)
            test_loss += loss_function(recon, x, mu, logvar).item()  # paef: ok host-sync
    print(f"====> Test set loss: {test_loss / len(test_loader.dataset):.4f}")


for epoch in range(1, 4):
    train(epoch)
    test(epoch)
    with torch.no_grad():
        sample = torch.randn(16, 4).to(device)  # paef: expect cpu-then-move
        sample = model.decode(sample).cpu()
        print(f"sample density {sample.mean().item():.4f}")
