# corpus: runnable
"""A fully-connected GAN in the style of the classic tutorials: batches flattened with
`reshape` before they are moved (still the loader's storage), label tensors built on the host
and moved every step (a `device=` factory is the same tensor), noise drawn on the host and
moved (a device draw would give other numbers: not rewritten), and a periodic accuracy
computed with Python's builtin `sum` over a comparison tensor."""
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset

torch.manual_seed(0)
torch.set_num_threads(1)
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
batch_size, latent, pixels = 8, 4, 16

data = TensorDataset(torch.rand(64, 1, 4, 4) * 2 - 1, torch.zeros(64))
data_loader = DataLoader(data, batch_size=batch_size, shuffle=False)  # paef: ok pageable-transfer; ok sync-dataloader
D = nn.Sequential(nn.Linear(pixels, 8), nn.LeakyReLU(0.2), nn.Linear(8, 1), nn.Sigmoid()).to(device)
G = nn.Sequential(nn.Linear(latent, 8), nn.ReLU(), nn.Linear(8, pixels), nn.Tanh()).to(device)
criterion = nn.BCELoss()
d_opt = torch.optim.Adam(D.parameters(), lr=2e-3)
g_opt = torch.optim.Adam(G.parameters(), lr=2e-3)

for epoch in range(2):
    for i, (images, _) in enumerate(data_loader):
        images = images.reshape(batch_size, -1).to(device)
        real_labels = torch.ones(batch_size, 1).to(device)  # paef: expect-fix cpu-then-move; ok redundant-tensor
        fake_labels = torch.zeros(batch_size, 1).to(device)  # paef: expect-fix cpu-then-move; ok redundant-tensor
        z = torch.randn(batch_size, latent).to(device)  # paef: expect cpu-then-move
        d_loss = criterion(D(images), real_labels) + criterion(D(G(z).detach()), fake_labels)
        d_opt.zero_grad()
        d_loss.backward()
        d_opt.step()
        z = torch.randn(batch_size, latent).to(device)  # paef: expect cpu-then-move
        g_loss = criterion(D(G(z)), real_labels)
        g_opt.zero_grad()
        g_loss.backward()
        g_opt.step()
        if (i + 1) % 4 == 0:
            with torch.no_grad():
                fooled = sum(D(G(z)).squeeze(1) > 0.5)  # paef: expect elementwise-loop
            print(epoch, i + 1, round(d_loss.item(), 4), round(g_loss.item(), 4), int(fooled))
