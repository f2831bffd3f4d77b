# corpus: runnable
"""A Bernoulli restricted Boltzmann machine trained by CD-k with hand-written updates (no
autograd at all: the whole training runs under torch.no_grad), on binary patterns that are
noisy copies of a few prototypes; reconstruction error is logged per epoch."""
import torch
from torch.utils.data import DataLoader, TensorDataset

torch.manual_seed(0)
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
N_VIS, N_HID, CD_K, LR = 36, 16, 2, 0.05

protos = (torch.rand(4, N_VIS) < 0.5).float()
flip = (torch.rand(600, N_VIS) < 0.08).float()
data = (protos[torch.randint(0, 4, (600,))] + flip) % 2
loader = DataLoader(TensorDataset(data), batch_size=50, shuffle=True)  # paef: ok pageable-transfer

W = (0.01 * torch.randn(N_VIS, N_HID)).to(device)  # paef: ok cpu-then-move
b_v = torch.zeros(N_VIS, device=device)
b_h = torch.zeros(N_HID, device=device)


def sample_h(v):
    p = torch.sigmoid(v @ W + b_h)
    return p, torch.bernoulli(p)


def sample_v(h):
    p = torch.sigmoid(h @ W.t() + b_v)
    return p, torch.bernoulli(p)


with torch.no_grad():
    for epoch in range(5):
        err = 0.0
        for (v0,) in loader:
            v0 = v0.to(device)
            ph0, h = sample_h(v0)
            for _ in range(CD_K):
                pv, v = sample_v(h)
                ph, h = sample_h(v)
            W += LR * (v0.t() @ ph0 - v.t() @ ph) / v0.shape[0]
            b_v += LR * (v0 - v).mean(0)
            b_h += LR * (ph0 - ph).mean(0)
            err += ((v0 - pv) ** 2).sum().item()  # paef: expect host-sync
        print(f"epoch {epoch} reconstruction error {err / len(data):.4f}")
    recon, _ = sample_v(sample_h(protos.to(device))[0])
    print("prototype recall", ((recon > 0.5).float() == protos.to(device)).float().mean().item())
