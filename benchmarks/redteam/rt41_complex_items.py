# corpus: runnable
"""Spectral features of a toy vibration dataset: FFT coefficients logged per batch (complex items)."""
import torch

torch.manual_seed(0)
device = 'cuda' if torch.cuda.is_available() else 'cpu'

t = torch.linspace(0, 1, 64, dtype=torch.float64)
signals = torch.stack([torch.sin(2 * torch.pi * (3 + k % 5) * t) + 0.1 * torch.randn(64, dtype=torch.float64)
                       for k in range(24)]).to(device)

coefs = []
phases = []
energy = 0.0
dc_total = 0.0
for start in range(0, signals.size(0), 6):
    batch = signals[start:start + 6]
    spec = torch.fft.rfft(batch, dim=-1)
    coefs.append(spec[:, 3].mean().item())
    phases.append(spec[0, 4].angle().item())
    energy += spec.abs().pow(2).sum().item()
    dc_total += spec[:, 0].sum().item()

coef_t = torch.tensor(coefs)
phase_t = torch.tensor(phases)
print("coef dtype", coef_t.dtype, "shape", tuple(coef_t.shape))
print("coefs", [f"{c.real:.12f}{c.imag:+.12f}j" for c in coef_t.tolist()])
print("phases", phase_t.dtype, [f"{p:.10f}" for p in phase_t.tolist()])
print("energy %.10f" % energy)
print("dc_total", type(dc_total).__name__, dc_total)

spec = torch.fft.rfft(signals[:2], dim=-1)
host_spec = torch.tensor(spec.cpu().tolist())
print("host spec", host_spec.dtype, tuple(host_spec.shape), "%.12f" % host_spec.abs().sum().item())
mag = torch.tensor(spec.abs().cpu().tolist())
print("mag", mag.dtype, "%.12f" % mag.sum().item())
