# corpus: runnable
# Spectral windows built per call from a fixed length, then handed out and changed by the caller,
# or built with requires_grad, or under a default dtype changed between calls.
import torch

torch.manual_seed(0)
N = 16


def window_for(n_fft):
    return torch.hann_window(N)


def spectrum(wave):
    win = torch.hann_window(N)
    return torch.stft(wave, N, 4, window=win, return_complex=True).abs().sum().item(), win


out = []
for step in range(3):
    wave = torch.randn(64)
    s, w = spectrum(wave)
    w.mul_(0.5)
    out.append(round(s, 3))
    got = window_for(N)
    got[0] = got[0] + 1
    out.append(round(got.sum().item(), 3))
    bl = torch.blackman_window(8, dtype=torch.float64) if step % 2 else torch.bartlett_window(8)
    out.append(round(bl.sum().item(), 4))
    torch.set_default_dtype(torch.float64 if step == 1 else torch.float32)
    k = torch.kaiser_window(8)
    out.append(str(k.dtype))
torch.set_default_dtype(torch.float32)
print(out)
