# corpus: runnable
# Tensors created on the host and then moved, with the factory's own keyword arguments in
# the way: **opts carrying `device`, a dtype in both calls, `memory_format`, `copy=True`,
# a positional dtype in `.to()`, star-args, a `# type:` comment, odd formatting.
import torch

torch.manual_seed(0)
torch.set_num_threads(1)
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
opts = {"dtype": torch.float64, "device": "cpu"}
shape = (2, 3)

for step in range(2):
    a = torch.zeros(2 + step, **opts).to(device)
    print("opts", a.dtype, a.sum().item())

for step in range(2):
    b = torch.ones(3 + step, dtype=torch.float16).to(device, torch.float32)
    print("two dtypes", b.dtype, b.sum().item())

for step in range(2):
    c = torch.zeros(1 + step, 3, 2, 2).to(device, memory_format=torch.channels_last)
    print("memory format", c.is_contiguous(), c.stride())

for step in range(2):
    d = torch.ones(*shape, step + 1).to(device)  # type: torch.Tensor
    print("star", d.shape, d.sum().item())

src = torch.arange(6.0)
for step in range(2):
    e = torch.as_tensor(src).to(device, copy=True)
    e += 1
    print("copy", src.sum().item(), e.sum().item())

for step in range(2):
    f = torch.full(
        (2,),
        0.1 * step,
    ).to(
        device
    )
    print("format", f.dtype, f.sum().item())

for step in range(2):
    g = torch.tensor([1, 2, step]).to(device, dtype=torch.float32)
    print("dtype kw", g.dtype, (g / 2).tolist())

for step in range(2):
    h = torch.tensor([1.5, step + 2.5], dtype=torch.float64).to(device, torch.float32, True)
    print("positional", h.dtype, h.tolist())

for step in range(2):
    buf = torch.empty(3).fill_(2.0).to(device)
    print("chain", buf.tolist())

for step in range(2):
    k = torch.randint(0, 5, (4,), generator=torch.Generator().manual_seed(step)).to(device)
    print("generator", k.tolist())
