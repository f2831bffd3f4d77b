# corpus: runnable
"""pytorch/examples-style VAE: per-batch loss.item() in training, a sample grid drawn each epoch."""
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset

torch.manual_seed(0)
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
LATENT = 8

images = (torch.rand(384, 1, 12, 12) > 0.7).float()
train_loader = DataLoader(TensorDataset(images[:320]), batch_size=32, shuffle=True)  # paef: ok pageable-transfer
test_loader = DataLoader(TensorDataset(images[320:]), batch_size=32)  # paef: ok pageable-transfer


class VAE(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(144, 64)
        self.fc21 = nn.Linear(64, LATENT)
        self.fc22 = nn.Linear(64, LATENT)
        self.fc3 = nn.Linear(LATENT, 64)
        self.fc4 = nn.Linear(64, 144)

    def encode(self, x):
        h1 = F.relu(self.fc1(x))
        return self.fc21(h1), self.fc22(h1)

    def reparameterize(self, mu, logvar):
        std = torch.exp(0.5 * logvar)
        eps = torch.randn_like(std)
        return mu + eps * std

    def decode(self, z):
        return torch.sigmoid(self.fc4(F.relu(self.fc3(z))))

    def forward(self, x):
        mu, logvar = self.encode(x.view(-1, 144))
        z = self.reparameterize(mu, logvar)
        return self.decode(z), mu, logvar


def loss_function(recon_x, x, mu, logvar):
    bce = F.binary_cross_entropy(recon_x, x.view(-1, 144), reduction="sum")
    kld = -0.5 * torch.sum(1 + logvar - mu.pow(2) - logvar.exp())
    return bce + kld


model = VAE().to(device)
optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)


def train(epoch):
    model.train()
    train_loss = 0
    for batch_idx, (data,) in enumerate(train_loader):
        data = data.to(device)
        optimizer.zero_grad()
        recon_batch, mu, logvar = model(data)
        loss = loss_function(recon_batch, data, mu, logvar)
        loss.backward()
        train_loss += loss.item()  # paef: expect host-sync
        optimizer.step()
    print(f"====> Epoch: {epoch} Average loss: {train_loss / len(train_loader.dataset):.4f}")


def test(epoch):
    model.eval()
    test_loss = 0
    with torch.no_grad():
        for data, in test_loader:
            data = data.to(device)
            recon_batch, mu, logvar = model(data)
            test_loss += loss_function(recon_batch, data, mu, logvar).item()  # paef: ok host-sync
    print(f"====> Test set loss: {test_loss / len(test_loader.dataset):.4f}")


for epoch in range(1, 4):
    train(epoch)
    test(epoch)
    with torch.no_grad():
        sample = torch.randn(16, LATENT).to(device)  # paef: expect cpu-then-move; refuse cpu-then-move; refuse redundant-tensor
        sample = model.decode(sample).cpu()
        print(f"sample mean {sample.mean():.4f}")
