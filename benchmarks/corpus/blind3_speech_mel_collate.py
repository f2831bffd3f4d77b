# corpus: runnable
"""Keyword spotting on synthetic tones: log-mel features computed with NumPy in the
collate_fn, variable-length padding, a small conv + GRU classifier."""
import numpy as np
import torch
import torch.nn as nn
from torch.nn.utils.rnn import pad_sequence
from torch.utils.data import DataLoader, Dataset

np.random.seed(0)
torch.manual_seed(0)
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
SR, N_FFT, HOP, N_MELS = 4000, 128, 64, 16


def mel_filterbank(sr, n_fft, n_mels):
    def hz_to_mel(f):
        return 2595.0 * np.log10(1.0 + f / 700.0)

    def mel_to_hz(m):
        return 700.0 * (10 ** (m / 2595.0) - 1.0)

    mels = np.linspace(hz_to_mel(0), hz_to_mel(sr / 2), n_mels + 2)
    bins = np.floor((n_fft + 1) * mel_to_hz(mels) / sr).astype(int)
    fb = np.zeros((n_mels, n_fft // 2 + 1))
    for m in range(1, n_mels + 1):
        lo, c, hi = bins[m - 1], bins[m], bins[m + 1]
        for k in range(lo, c):
            fb[m - 1, k] = (k - lo) / max(c - lo, 1)
        for k in range(c, hi):
            fb[m - 1, k] = (hi - k) / max(hi - c, 1)
    return fb


class ToneDataset(Dataset):
    def __init__(self, n):
        self.freqs = [300, 900, 1500]
        self.items = []
        for i in range(n):
            label = i % 3
            dur = np.random.randint(2000, 4000)
            t = np.arange(dur) / SR
            wav = np.sin(2 * np.pi * self.freqs[label] * t) + 0.3 * np.random.randn(dur)
            self.items.append((wav.astype(np.float32), label))

    def __len__(self):
        return len(self.items)

    def __getitem__(self, i):
        return self.items[i]


def log_mel(wav):
    fb = mel_filterbank(SR, N_FFT, N_MELS)  # paef: expect cpu-function
    window = np.hanning(N_FFT)  # paef: ok cpu-function
    n_frames = 1 + (len(wav) - N_FFT) // HOP
    frames = np.stack([wav[i * HOP: i * HOP + N_FFT] * window for i in range(n_frames)])
    power = np.abs(np.fft.rfft(frames, axis=1)) ** 2
    return np.log(power @ fb.T + 1e-6).astype(np.float32)


def collate(batch):
    feats = [torch.from_numpy(log_mel(w)) for w, _ in batch]
    lengths = torch.tensor([f.shape[0] for f in feats])
    labels = torch.tensor([y for _, y in batch])
    return pad_sequence(feats, batch_first=True), lengths, labels


class KWS(nn.Module):
    def __init__(self, n_classes=3):
        super().__init__()
        self.conv = nn.Conv1d(N_MELS, 32, 3, padding=1)
        self.gru = nn.GRU(32, 32, batch_first=True)
        self.fc = nn.Linear(32, n_classes)

    def forward(self, x, lengths):
        x = torch.relu(self.conv(x.transpose(1, 2))).transpose(1, 2)
        packed = nn.utils.rnn.pack_padded_sequence(x, lengths.cpu(), batch_first=True, enforce_sorted=False)
        _, h = self.gru(packed)
        return self.fc(h[-1])


train_loader = DataLoader(ToneDataset(48), batch_size=16, shuffle=True, collate_fn=collate)  # paef: expect sync-dataloader; ok pageable-transfer
model = KWS().to(device)
opt = torch.optim.Adam(model.parameters(), lr=5e-3)
crit = nn.CrossEntropyLoss()

for epoch in range(3):
    correct = 0
    loss_sum = torch.zeros((), device=device)
    for x, lengths, y in train_loader:
        x, y = x.to(device), y.to(device)
        out = model(x, lengths)
        loss = crit(out, y)
        opt.zero_grad()
        loss.backward()
        opt.step()
        loss_sum += loss.detach()
        correct += (out.argmax(1) == y).sum()
    print(f"epoch {epoch} loss {loss_sum.item() / len(train_loader):.4f} acc {correct.item() / len(train_loader.dataset):.3f}")
