# corpus: runnable
"""Environmental-sound classification with a log-mel front end: the feature helper builds the
STFT window and the triangular mel filterbank every time it is called, a small CNN classifies
the log-mel image, and validation runs through an `evaluate()` that forgets `no_grad`."""
import math

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset

torch.manual_seed(0)
np.random.seed(0)
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
SR, N_FFT, HOP, N_MELS = 8000, 256, 128, 32


def hz_to_mel(f):
    return 2595.0 * np.log10(1.0 + f / 700.0)


def mel_to_hz(m):
    return 700.0 * (10 ** (m / 2595.0) - 1.0)


def mel_filterbank(sr, n_fft, n_mels):
    mels = np.linspace(hz_to_mel(0.0), hz_to_mel(sr / 2), n_mels + 2)
    bins = np.floor((n_fft + 1) * mel_to_hz(mels) / sr).astype(int)
    fb = np.zeros((n_mels, n_fft // 2 + 1), dtype=np.float32)
    for m in range(1, n_mels + 1):
        for k in range(bins[m - 1], bins[m]):
            fb[m - 1, k] = (k - bins[m - 1]) / max(bins[m] - bins[m - 1], 1)
        for k in range(bins[m], bins[m + 1]):
            fb[m - 1, k] = (bins[m + 1] - k) / max(bins[m + 1] - bins[m], 1)
    return fb


def log_mel(wave):
    window = torch.hann_window(N_FFT, device=wave.device)  # paef: expect redundant-tensor
    spec = torch.stft(wave, N_FFT, HOP, window=window, return_complex=True).abs() ** 2
    fb = torch.from_numpy(mel_filterbank(SR, N_FFT, N_MELS)).to(wave.device)  # paef: expect cpu-function; ok redundant-tensor; ok cpu-then-move
    return torch.log(fb @ spec + 1e-6).unsqueeze(1)


class SoundCNN(nn.Module):
    def __init__(self, n_classes=4):
        super().__init__()
        self.conv1 = nn.Conv2d(1, 16, 3, padding=1)
        self.conv2 = nn.Conv2d(16, 32, 3, padding=1)
        self.fc = nn.Linear(32, n_classes)

    def forward(self, x):
        x = F.max_pool2d(F.relu(self.conv1(x)), 2)
        x = F.relu(self.conv2(x))
        return self.fc(x.mean((2, 3)))


def synth(n):
    t = np.arange(SR // 2) / SR
    labels = np.random.randint(0, 4, n)
    freqs = np.array([300.0, 900.0, 1800.0, 3000.0])[labels]
    waves = np.sin(2 * math.pi * freqs[:, None] * t) + 0.5 * np.random.randn(n, t.size)
    return torch.tensor(waves, dtype=torch.float32), torch.tensor(labels)


def evaluate(model, loader):
    model.eval()
    correct = 0
    for wave, y in loader:
        wave, y = wave.to(device), y.to(device)
        logits = model(log_mel(wave))  # paef: expect-fix eval-without-no-grad
        correct += (logits.argmax(1) == y).sum()
    return correct.item() / len(loader.dataset)


xtr, ytr = synth(256)
xva, yva = synth(64)
train_loader = DataLoader(TensorDataset(xtr, ytr), batch_size=32, shuffle=True)  # paef: ok pageable-transfer
val_loader = DataLoader(TensorDataset(xva, yva), batch_size=32)  # paef: ok pageable-transfer
model = SoundCNN().to(device)
opt = torch.optim.Adam(model.parameters(), lr=2e-3)
for epoch in range(4):
    model.train()
    running = 0.0
    for wave, y in train_loader:
        wave, y = wave.to(device), y.to(device)
        loss = F.cross_entropy(model(log_mel(wave)), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
        running += loss.item()  # paef: expect host-sync
    print(f"epoch {epoch} loss {running / len(train_loader):.4f} val acc {evaluate(model, val_loader):.3f}")
