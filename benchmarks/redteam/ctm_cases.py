# corpus: runnable
import torch
torch.manual_seed(0)
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
idx = torch.arange(4).to(device)
opts = {"dtype": torch.float64}
half = torch.float64
for step in range(2):
    a = torch.arange(4).to(idx)
    b = torch.zeros(3, **opts).to(device)
    c = torch.ones(3).to(half)
    d = torch.zeros(3, device="cpu").to(device)
    e = torch.full((2,), 3).to(device, torch.float64)
    f = torch.tensor([1, 2]).to(device=device, dtype=torch.float16)
    g = torch.zeros(2).to(device).requires_grad_()
    h = torch.eye(3).to(device)[None]
    k = torch.Tensor([1, 2]).to(device)
    print(a.dtype, b.dtype, c.dtype, d.sum().item(), e.dtype, f.dtype, g.requires_grad, h.shape, k.dtype)
