# corpus: runnable
"""Keyword spotting on synthetic one-second "utterances" (tones with keyword-specific chirps
plus noise): raw waveforms are loaded in batches and log-mel features are computed per batch
on the device by a featurize() helper (STFT with a Hann window and a NumPy-built mel
filterbank), followed by a small 1-D CNN classifier."""
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset

np.random.seed(0)
torch.manual_seed(0)
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
SR, N_FFT, HOP, N_MELS, N_KW = 4000, 128, 64, 20, 4


def mel_filterbank(n_mels, n_freqs, sr):
    def hz_to_mel(f):
        return 2595 * np.log10(1 + f / 700)

    mels = np.linspace(hz_to_mel(0), hz_to_mel(sr / 2), n_mels + 2)
    hz = 700 * (10 ** (mels / 2595) - 1)
    bins = np.floor((n_freqs - 1) * 2 * hz / sr).astype(int)
    fb = np.zeros((n_mels, n_freqs), dtype=np.float32)
    for m in range(1, n_mels + 1):
        left, center, right = bins[m - 1], bins[m], bins[m + 1]
        fb[m - 1, left:center] = (np.arange(left, center) - left) / max(center - left, 1)
        fb[m - 1, center:right] = (right - np.arange(center, right)) / max(right - center, 1)
    return fb


def featurize(wave):
    window = torch.hann_window(N_FFT).to(wave.device)  # paef: expect redundant-tensor; ok cpu-then-move
    spec = torch.stft(wave, N_FFT, HOP, window=window, return_complex=True).abs() ** 2
    fb = torch.from_numpy(mel_filterbank(N_MELS, N_FFT // 2 + 1, SR)).to(wave.device)  # paef: expect cpu-function; ok redundant-tensor; ok cpu-then-move
    return torch.log(fb @ spec + 1e-6)


def synth(n):
    t = np.arange(SR) / SR
    labels = np.random.randint(0, N_KW, n)
    f0 = 300 + 150 * labels[:, None]
    waves = np.sin(2 * np.pi * (f0 * t + 200 * labels[:, None] * t**2)) + 0.5 * np.random.randn(n, SR)
    return torch.from_numpy(waves.astype(np.float32)), torch.from_numpy(labels)


waves, labels = synth(256)
train_loader = DataLoader(TensorDataset(waves[:192], labels[:192]), batch_size=32, shuffle=True)  # paef: ok pageable-transfer
test_loader = DataLoader(TensorDataset(waves[192:], labels[192:]), batch_size=64)  # paef: ok pageable-transfer
model = nn.Sequential(nn.Conv1d(N_MELS, 32, 3, padding=1), nn.ReLU(), nn.AdaptiveAvgPool1d(1), nn.Flatten(), nn.Linear(32, N_KW)).to(device)
optimizer = torch.optim.Adam(model.parameters(), lr=3e-3)
for epoch in range(3):
    model.train()
    for wave, y in train_loader:
        wave, y = wave.to(device), y.to(device)
        feats = featurize(wave)
        feats = (feats - feats.mean(-1, keepdim=True)) / (feats.std(-1, keepdim=True) + 1e-5)
        loss = F.cross_entropy(model(feats), y)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    model.eval()
    correct = torch.zeros((), dtype=torch.long, device=device)
    with torch.no_grad():
        for wave, y in test_loader:
            feats = featurize(wave.to(device))
            feats = (feats - feats.mean(-1, keepdim=True)) / (feats.std(-1, keepdim=True) + 1e-5)
            correct += (model(feats).argmax(1) == y.to(device)).sum()
    print(f"epoch {epoch} loss {loss.item():.4f} test acc {correct.item() / 64:.3f}")
