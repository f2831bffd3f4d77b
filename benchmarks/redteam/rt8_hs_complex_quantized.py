# corpus: runnable
# Running sums over outputs whose dtype is not the usual float: a spectral module returning a
# complex spectrum, a dynamically quantised linear model, an int8 code book's `int_repr()`,
# a half-precision model's outputs.
import torch
import torch.nn as nn

torch.manual_seed(0)
torch.set_num_threads(1)
device = "cuda" if torch.cuda.is_available() else "cpu"


class Spectrum(nn.Module):
    def forward(self, x):
        return torch.fft.rfft(x)


spec = Spectrum()
xs = [torch.randn(8) for _ in range(3)]
energy = 0
for x in xs:
    energy += spec(x).sum().item()
print("spectrum", energy)

qmodel = torch.ao.quantization.quantize_dynamic(nn.Sequential(nn.Linear(8, 4)), {nn.Linear}, dtype=torch.qint8)
qsum = 0.0
for x in xs:
    qsum += qmodel(x.view(1, -1)).sum().item()
print("quantized", round(qsum, 4))

scale_q = torch.quantize_per_tensor(torch.randn(4), 0.1, 0, torch.qint8)
codes = 0
for step in range(3):
    codes += scale_q.int_repr().sum().item()
print("codes", codes)

half = nn.Linear(8, 2).half()
hsum = 0.0
for x in xs:
    hsum += half(x.half()).sum().item()
print("half", hsum)
