# corpus: runnable
# Red team 48, PROBE after first contact (not blind): the first contact's ping-pong rewrite kept a row of
# a model's output through `torch.tensor(row.tolist())`, rewritten to `row.detach()...float().cpu()`. Here
# the "model" outputs are not float: a vector quantiser's forward returns integer codes, a thresholding
# module returns a bool mask, a spectral module returns complex numbers. `torch.tensor` of their lists
# keeps int64 / bool / complex64; a `.float()` would not.
import torch
import torch.nn as nn

torch.manual_seed(9)
torch.set_num_threads(1)
device = 'cuda' if torch.cuda.is_available() else 'cpu'


class Quantiser(nn.Module):
    def __init__(self, n_codes, d):
        super().__init__()
        self.codebook = nn.Parameter(torch.randn(n_codes, d))

    def forward(self, z):
        return torch.cdist(z, self.codebook).argmin(-1)


class Gate(nn.Module):
    def forward(self, z):
        return z.mean(-1) > 0


class Spectrum(nn.Module):
    def forward(self, z):
        return torch.fft.rfft(z, dim=-1)


enc = nn.Linear(4, 3).to(device)
quant = Quantiser(5, 3).to(device)
gate = Gate().to(device)
spec = Spectrum().to(device)
opt = torch.optim.SGD(list(enc.parameters()) + list(quant.parameters()), lr=0.1)
X = torch.randn(16, 4).to(device)
kept_codes, kept_gates, kept_specs = [], [], []
for step in range(3):
    z = enc(X)
    codes = quant(z)
    loss = (z - quant.codebook[codes]).pow(2).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
    with torch.no_grad():
        row = codes[:4]
        kept_codes.append(torch.tensor(row.tolist()))
        g = gate(z)
        kept_gates.append(torch.tensor(g.tolist()))
        s = spec(z)[0]
        kept_specs.append(torch.tensor(s.tolist()))
    print(f"step {step} loss {loss.item():.10f}")
print("codes", [c.dtype for c in kept_codes], kept_codes[-1])
print("gates", [g.dtype for g in kept_gates], kept_gates[-1])
print("specs", [s.dtype for s in kept_specs], kept_specs[-1])
