# corpus: runnable
# Red team 39 (blind): audio-style preprocessing. A seeded CPU generator drives the shuffle and the noise
# (`torch.randperm(n, generator=g).to(device)`, `torch.randn(..., generator=g).to(device)`), and the STFT
# window is built on the host and moved (`torch.hann_window(n_fft).to(device)`), as in most audio repos.
import torch
import torch.nn as nn

torch.manual_seed(17)
torch.set_num_threads(1)
device = "cuda" if torch.cuda.is_available() else "cpu"
g = torch.Generator().manual_seed(17)
n_fft = 16

wave = torch.sin(torch.linspace(0, 40, 256)).repeat(6, 1).to(device)
window = torch.hann_window(n_fft).to(device)
head = nn.Linear(n_fft // 2 + 1, 2).to(device)
opt = torch.optim.SGD(head.parameters(), lr=0.05)
labels = torch.tensor([0, 1, 0, 1, 1, 0], device=device)

for epoch in range(3):
    order = torch.randperm(6, generator=g).to(device)
    noise = torch.randn(6, 256, generator=g).to(device)
    spec = torch.stft(wave[order] + 0.05 * noise, n_fft, hop_length=8, window=window, return_complex=True)
    feats = spec.abs().mean(-1)
    loss = nn.functional.cross_entropy(head(feats), labels[order])
    opt.zero_grad()
    loss.backward()
    opt.step()
    print(epoch, order.tolist(), f"{loss.item():.12f}", f"{window.sum().item():.15f}")
print("next draw", torch.rand(2, generator=g).tolist())
