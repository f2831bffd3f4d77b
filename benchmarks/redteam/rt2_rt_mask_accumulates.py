# corpus: runnable
# Masks and windows rebuilt every call and then changed in place by an amount (not set): hoisting
# them would accumulate the change across calls.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
N_FFT = 16


class ScaledConv(nn.Conv2d):
    def forward(self, x):
        _, _, kh, kw = self.weight.shape
        mask = torch.ones_like(self.weight)
        mask[:, :, kh // 2, kw // 2:] *= 0.5
        mask[:, :, 0, 0] += 1
        return F.conv2d(x, self.weight * mask, self.bias, self.stride, self.padding)


def featurize(wave):
    window = torch.hann_window(N_FFT)
    window.mul_(2.0)
    return torch.stft(wave, N_FFT, 4, window=window, return_complex=True).abs()


def featurize2(wave):
    window = torch.hamming_window(N_FFT)
    window[0] += 0.25
    return torch.stft(wave, N_FFT, 4, window=window, return_complex=True).abs()


conv = ScaledConv(1, 2, 3, padding=1)
out = []
for step in range(3):
    wave = torch.randn(1, 64)
    spec = featurize(wave)[:, None, :6, :6] + featurize2(wave)[:, None, :6, :6]
    out.append(round(conv(spec).sum().item(), 3))
    mask_calls = []
    for k in range(2):
        m = torch.zeros(4)
        m[1] = 3
        m[2:] -= 1
        mask_calls.append(m.sum().item())
    out.append(mask_calls)
print(out)
