"""Audio classification with on-the-fly features, in the style of small keyword-spotting repos."""
import math
import random

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, Dataset

random.seed(0)
np.random.seed(0)
torch.manual_seed(0)

SR, N_FFT, HOP, N_MELS = 8000, 256, 128, 20


def hz_to_mel(f):
    return 2595.0 * np.log10(1.0 + f / 700.0)


def mel_to_hz(m):
    return 700.0 * (10 ** (m / 2595.0) - 1.0)


def mel_filterbank(sr, n_fft, n_mels):
    freqs = np.linspace(0, sr / 2, n_fft // 2 + 1)
    mels = np.linspace(hz_to_mel(0.0), hz_to_mel(sr / 2), n_mels + 2)
    hz = mel_to_hz(mels)
    fb = np.zeros((n_mels, len(freqs)), dtype=np.float32)
    for i in range(n_mels):
        lo, c, hi = hz[i], hz[i + 1], hz[i + 2]
        fb[i] = np.maximum(0, np.minimum((freqs - lo) / (c - lo), (hi - freqs) / (hi - c)))
    return fb


class KeywordDataset(Dataset):
    def __init__(self, n, train=True):
        rng = np.random.RandomState(0 if train else 1)
        self.labels = rng.randint(0, 5, size=n)
        self.phase = rng.rand(n)
        self.train = train

    def __len__(self):
        return len(self.labels)

    def __getitem__(self, idx):
        label = int(self.labels[idx])
        t = np.arange(SR) / SR
        wav = np.sin(2 * math.pi * (300 + 200 * label) * t + self.phase[idx]).astype(np.float32)
        if self.train:
            shift = random.randint(0, 800)
            wav = np.roll(wav, shift)
            wav = wav + 0.05 * np.random.randn(len(wav)).astype(np.float32)
        return torch.from_numpy(wav), label


class LogMel(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, wav):
        window = torch.hann_window(N_FFT).to(wav.device)
        spec = torch.stft(wav, N_FFT, HOP, window=window, return_complex=True).abs() ** 2
        fb = torch.tensor(mel_filterbank(SR, N_FFT, N_MELS)).to(wav.device)
        mel = torch.matmul(fb, spec)
        return torch.log(mel + 1e-6)


def spec_augment(spec, max_f=4, max_t=8):
    for i in range(spec.size(0)):
        f = random.randint(0, max_f)
        f0 = random.randint(0, spec.size(1) - f)
        spec[i, f0:f0 + f, :] = 0
        t = random.randint(0, max_t)
        t0 = random.randint(0, spec.size(2) - t)
        spec[i, :, t0:t0 + t] = 0
    return spec


class KWSNet(nn.Module):
    def __init__(self, n_classes=5):
        super().__init__()
        self.features = LogMel()
        self.norm = nn.BatchNorm1d(N_MELS)
        self.conv = nn.Sequential(nn.Conv1d(N_MELS, 32, 3, padding=1), nn.ReLU(), nn.Conv1d(32, 32, 3, padding=1), nn.ReLU())
        self.fc = nn.Linear(32, n_classes)

    def forward(self, wav, augment=False):
        x = self.norm(self.features(wav))
        if augment:
            x = spec_augment(x)
        x = self.conv(x).mean(-1)
        return self.fc(x)


def main():
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    train_loader = DataLoader(KeywordDataset(64), batch_size=16, shuffle=True, num_workers=0)
    test_loader = DataLoader(KeywordDataset(32, train=False), batch_size=16)
    model = KWSNet().to(device)
    optimizer = torch.optim.Adam(model.parameters(), lr=3e-3)
    criterion = nn.CrossEntropyLoss()
    for epoch in range(3):
        model.train()
        train_loss, correct = [], 0
        for wav, label in train_loader:
            wav, label = wav.to(device), label.to(device)
            output = model(wav, augment=True)
            loss = criterion(output, label)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            train_loss.append(loss.item())
            correct += (output.argmax(1) == label).sum().item()
        model.eval()
        test_correct = 0
        with torch.no_grad():
            for wav, label in test_loader:
                wav, label = wav.to(device), label.to(device)
                pred = model(wav).argmax(dim=1)
                test_correct += pred.eq(label).sum().item()
        print(f"epoch {epoch} loss {np.mean(train_loss):.4f} train_acc {correct / 64:.3f} test_acc {test_correct / 32:.3f}")
    checksum = sum(p.detach().double().sum().item() for p in model.parameters())
    print(f"checksum {checksum:.6f}")


if __name__ == "__main__":
    main()
