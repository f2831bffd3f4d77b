"""A denoising-diffusion training script (minDiffusion style) and a classifier fine-tune whose
loaders are iterated through progress bars bound to a name first: `pbar = tqdm(dataloader)`
then `for x, _ in pbar:` (with `pbar.set_description(...)` each step), and
`bar = tqdm(enumerate(train_loader), total=len(train_loader))`. Each batch is copied to the
device from pageable memory and loaded in the training process. Near-misses: a pinned loader
behind a bar, a bar over a list of device tensors, a bar name rebound in a branch."""
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, Dataset
from tqdm import tqdm

device = torch.device("cuda" if torch.cuda.is_available() else "cpu")


class NoisyDigits(Dataset):
    def __init__(self, n):
        self.images = torch.rand(n, 1, 16, 16)
        self.labels = torch.randint(0, 10, (n,))

    def __len__(self):
        return len(self.images)

    def __getitem__(self, i):
        x = self.images[i] * 2 - 1
        x = x + 0.05 * torch.randn_like(x)
        return x, self.labels[i]


class Denoiser(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Conv2d(2, 32, 3, padding=1), nn.GELU(), nn.Conv2d(32, 1, 3, padding=1))

    def forward(self, x, t):
        return self.net(torch.cat([x, t[:, None, None, None].expand_as(x)], 1))


def train_ddpm(n_epoch=2, n_T=100):
    model = Denoiser().to(device)
    betas = torch.linspace(1e-4, 0.02, n_T, device=device)
    alphabar = torch.cumprod(1 - betas, 0)
    dataloader = DataLoader(NoisyDigits(256), batch_size=32, shuffle=True)  # paef: ok pageable-transfer; expect sync-dataloader
    optim = torch.optim.Adam(model.parameters(), lr=2e-4)
    for i in range(n_epoch):
        model.train()
        pbar = tqdm(dataloader)
        loss_ema = None
        for x, _ in pbar:
            optim.zero_grad()
            x = x.to(device)
            t = torch.randint(0, n_T, (x.shape[0],), device=device)
            eps = torch.randn_like(x)
            a = alphabar[t][:, None, None, None]
            loss = F.mse_loss(eps, model(a.sqrt() * x + (1 - a).sqrt() * eps, t / n_T))
            loss.backward()
            optim.step()
    return model


def finetune(model, epochs=2):
    train_loader = DataLoader(NoisyDigits(256), batch_size=32, shuffle=True)  # paef: ok pageable-transfer; expect sync-dataloader
    head = nn.Linear(256, 10).to(device)
    opt = torch.optim.SGD(head.parameters(), lr=0.1)
    for epoch in range(epochs):
        bar = tqdm(enumerate(train_loader), total=len(train_loader))
        for step, (images, labels) in bar:
            images, labels = images.to(device), labels.to(device)
            loss = F.cross_entropy(head(images.flatten(1)), labels)
            opt.zero_grad()
            loss.backward()
            opt.step()
    return head


def finetune_pinned(epochs=2):
    pinned = DataLoader(NoisyDigits(256), batch_size=32, shuffle=True, num_workers=2, pin_memory=True)
    head = nn.Linear(256, 10).to(device)
    opt = torch.optim.SGD(head.parameters(), lr=0.1)
    for epoch in range(epochs):
        bar = tqdm(pinned, desc=f"epoch {epoch}")
        for images, labels in bar:
            images = images.to(device, non_blocking=True)
            labels = labels.to(device, non_blocking=True)
            loss = F.cross_entropy(head(images.flatten(1)), labels)
            opt.zero_grad()
            loss.backward()
            opt.step()


def replay(chunks, verbose):
    head = nn.Linear(256, 10).to(device)
    opt = torch.optim.SGD(head.parameters(), lr=0.1)
    host_loader = DataLoader(NoisyDigits(64), batch_size=32)
    bar = tqdm(chunks)
    if not verbose:
        bar = chunks
    for images, labels in bar:
        loss = F.cross_entropy(head(images.to(device).flatten(1)), labels.to(device))
        opt.zero_grad()
        loss.backward()
        opt.step()
    return host_loader


resident = [(torch.rand(32, 1, 16, 16, device=device), torch.randint(0, 10, (32,), device=device)) for _ in range(4)]
ddpm = train_ddpm()
finetune(ddpm)
finetune_pinned()
replay(resident, verbose=False)
