# corpus: runnable
"""Quantised-input pipeline with narrow integer arithmetic, deterministic algorithms and matmul precision flags."""
import torch

torch.manual_seed(0)
device = 'cuda' if torch.cuda.is_available() else 'cpu'
torch.use_deterministic_algorithms(True)
torch.set_float32_matmul_precision("high")
print("deterministic", torch.are_deterministic_algorithms_enabled(), torch.get_float32_matmul_precision())

pixels = torch.randint(0, 256, (6, 10), dtype=torch.uint8).to(device)
offsets = torch.randint(-300, 300, (6, 10), dtype=torch.int16).to(device)
flags = torch.rand(6, 10).to(device) > 0.5

bright = torch.zeros(6, 10, dtype=torch.uint8, device=device)
for i in range(pixels.size(0)):
    bright[i] = pixels[i] + 200
shifted = torch.zeros(6, 10, dtype=torch.int16, device=device)
for i in range(offsets.size(0)):
    shifted[i] = offsets[i] * 150
print("bright", bright.dtype, bright.sum().item(), "shifted", shifted.dtype, shifted.sum().item())

hits = 0
overflowed = 0
sat = 0
votes = []
for r in range(pixels.size(0)):
    row = pixels[r]
    hits += flags[r].sum().item()
    sat += (row + row).max().item()
    overflowed += (offsets[r] * 200).min().item()
    votes.append(flags[r].any().item())
print("hits", hits, type(hits).__name__, "sat", sat, "overflowed", overflowed)
vt = torch.tensor(votes)
print("votes", vt.dtype, vt.tolist())

w = torch.randn(10, 3, device=device)
feats = pixels.float() / 255.0
ok = 0
for r in range(feats.size(0)):
    logits = feats[r] @ w
    try:
        label = int(logits.argmax().item())
        if label == 2:
            raise ValueError("class 2 is held out")
        ok += 1
    except ValueError as err:
        print("skip", r, err)
print("ok", ok)
clipped = torch.clamp(offsets, -100, 100)
relu_i = torch.where(offsets > 0, offsets, 0)
relu_b = flags * (flags > 0)
print("relu int16", relu_i.dtype, relu_i.sum().item(), "relu bool", relu_b.dtype, relu_b.sum().item(), clipped.dtype)
