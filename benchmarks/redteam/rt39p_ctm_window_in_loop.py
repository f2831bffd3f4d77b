# corpus: runnable
# Red team 39 probe (not blind, after first contact): STFT window functions built on the host and moved on
# every step (inside a multi-resolution loss helper and in the loop), next to constant `arange` / `linspace`
# inputs of `exp` / `cos`: CUDA computes window cosines with other rounding than the CPU.
import torch
import torch.nn as nn

torch.manual_seed(39)
torch.set_num_threads(1)
device = "cuda" if torch.cuda.is_available() else "cpu"
head = nn.Linear(9, 1).to(device)
opt = torch.optim.SGD(head.parameters(), lr=0.1)
wave = torch.randn(8, 128, device=device)


def spec_feats(x: torch.Tensor, n_fft: int) -> torch.Tensor:
    window = torch.hann_window(n_fft).to(x.device)
    return torch.stft(x, n_fft, hop_length=4, window=window, return_complex=True).abs().mean(-1)


for step in range(4):
    for n_fft in (16,):
        w = torch.hann_window(n_fft).to(device)
        k = torch.kaiser_window(n_fft, True, 8.0).to(device)
        h = torch.hamming_window(n_fft).to(device)
        b = torch.blackman_window(n_fft).to(device)
        e = torch.exp(torch.arange(5)).to(device)
        c = torch.cos(torch.linspace(0, 3, 5)).to(device)
        loss = head(spec_feats(wave, n_fft)).pow(2).mean() + (w * k * h * b).sum() + e.sum() + c.sum()
        opt.zero_grad()
        loss.backward()
        opt.step()
        print(step, f"{loss.item():.15f}")
