# corpus: runnable
# Red team 36 (blind): keyword spotting on synthetic audio. Log-magnitude STFT features with a Hann window
# and a Kaiser-windowed low-pass kernel built on the host and moved to the device in the loop, as in many
# torchaudio-free recipes; the features feed a small 1-d CNN.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(5)
torch.set_num_threads(1)
device = "cuda" if torch.cuda.is_available() else "cpu"
N_FFT, HOP = 128, 32
SR = 4000

t = torch.arange(SR // 4) / SR
waves, labels = [], []
for k in range(48):
    f0 = 300.0 + 40.0 * (k % 12)
    waves.append(torch.sin(2 * torch.pi * f0 * t) + 0.3 * torch.randn_like(t))
    labels.append(k % 3)
waves = torch.stack(waves)
labels = torch.tensor(labels)

model = nn.Sequential(nn.Conv1d(N_FFT // 2 + 1, 16, 3), nn.ReLU(), nn.AdaptiveAvgPool1d(1), nn.Flatten(), nn.Linear(16, 3)).to(device)
opt = torch.optim.Adam(model.parameters(), lr=3e-3)

for epoch in range(4):
    total = 0.0
    for s in range(0, len(waves), 16):
        audio = waves[s : s + 16].to(device)
        y = labels[s : s + 16].to(device)
        lowpass = torch.kaiser_window(15, periodic=False, beta=6.0).to(device)
        lowpass = lowpass / lowpass.sum()
        audio = F.conv1d(audio.unsqueeze(1), lowpass.view(1, 1, -1), padding=7).squeeze(1)
        window = torch.hann_window(N_FFT).to(device)
        spec = torch.stft(audio, N_FFT, hop_length=HOP, window=window, return_complex=True)
        feats = torch.log1p(spec.abs())
        loss = F.cross_entropy(model(feats), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
        total += loss.item()
    print(f"epoch {epoch} loss {total:.10f} feat-sum {feats.double().sum().item():.8f}")
