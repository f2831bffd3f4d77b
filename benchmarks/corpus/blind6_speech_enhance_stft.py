# corpus: runnable
"""Single-channel speech enhancement by spectral masking: noisy waveforms go through an STFT,
a small BLSTM predicts a magnitude mask, the masked spectrum is inverted with iSTFT and the
loss is negative SI-SNR in the time domain. The STFT/iSTFT helpers build their window on each
call; validation reports mean SI-SNR improvement per utterance."""
import math

import torch
import torch.nn as nn

torch.manual_seed(0)
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
N_FFT, HOP, LEN = 128, 32, 2048


def stft(x):
    window = torch.hann_window(N_FFT).to(x.device)  # paef: expect redundant-tensor; ok cpu-then-move
    return torch.stft(x, N_FFT, HOP, window=window, return_complex=True)


def istft(spec, length):
    window = torch.hann_window(N_FFT, device=spec.device)  # paef: expect redundant-tensor
    return torch.istft(spec, N_FFT, HOP, window=window, length=length)


def si_snr(est, ref, eps=1e-8):
    est = est - est.mean(-1, keepdim=True)
    ref = ref - ref.mean(-1, keepdim=True)
    proj = (est * ref).sum(-1, keepdim=True) * ref / (ref.pow(2).sum(-1, keepdim=True) + eps)
    noise = est - proj
    return 10 * torch.log10(proj.pow(2).sum(-1) / (noise.pow(2).sum(-1) + eps) + eps)


class MaskNet(nn.Module):
    def __init__(self, freq=N_FFT // 2 + 1, hidden=64):
        super().__init__()
        self.lstm = nn.LSTM(freq, hidden, batch_first=True, bidirectional=True)
        self.out = nn.Linear(2 * hidden, freq)

    def forward(self, mag):
        h, _ = self.lstm(torch.log1p(mag).transpose(1, 2))
        return torch.sigmoid(self.out(h)).transpose(1, 2)


def make_pairs(n):
    t = torch.arange(LEN) / 8000
    f = 200 + 300 * torch.rand(n, 1)
    clean = torch.sin(2 * math.pi * f * t) * torch.sin(2 * math.pi * 3 * t).abs()
    noisy = clean + 0.4 * torch.randn(n, LEN)
    return noisy, clean


train_noisy, train_clean = make_pairs(96)
val_noisy, val_clean = make_pairs(16)
model = MaskNet().to(device)
optimizer = torch.optim.Adam(model.parameters(), lr=2e-3)
for epoch in range(4):
    model.train()
    perm = torch.randperm(len(train_noisy))
    for i in range(0, len(perm), 16):
        noisy, clean = train_noisy[perm[i : i + 16]].to(device), train_clean[perm[i : i + 16]].to(device)
        spec = stft(noisy)
        est = istft(spec * model(spec.abs()), LEN)
        loss = -si_snr(est, clean).mean()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    model.eval()
    improvements = []
    with torch.no_grad():
        for noisy, clean in zip(val_noisy, val_clean):  # paef: ok elementwise-loop
            noisy, clean = noisy.unsqueeze(0).to(device), clean.unsqueeze(0).to(device)
            spec = stft(noisy)
            est = istft(spec * model(spec.abs()), LEN)
            improvements.append((si_snr(est, clean) - si_snr(noisy, clean)).item())  # paef: ok host-sync
    print(f"epoch {epoch} train loss {loss.item():.3f} val SI-SNRi {sum(improvements) / len(improvements):.3f} dB")
