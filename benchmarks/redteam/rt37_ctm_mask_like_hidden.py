# corpus: runnable
# Red team 37 (blind): attention masks and positional noise built on the CPU and moved "like" the hidden
# states, HuggingFace-style (`.to(hidden)` takes device AND dtype from a tensor). The encoder runs in
# float64 for a gradient check.
import torch
import torch.nn as nn

torch.manual_seed(9)
torch.set_num_threads(1)
device = torch.device("cpu")


def extended_mask(hidden, lengths):
    b, t = hidden.shape[0], hidden.shape[1]
    mask = torch.ones(b, t).to(hidden)
    for i, n in enumerate(lengths):
        mask[i, n:] = 0.0
    bias = torch.full((b, 1, t), -1e9).to(hidden.device, hidden.dtype)
    return mask, bias


enc = nn.Linear(8, 8).double()
x = torch.randn(3, 5, 8, dtype=torch.float64)
lengths = [5, 3, 4]
for step in range(3):
    h = enc(x)
    mask, bias = extended_mask(h, lengths)
    noise = torch.randn(3, 5, 8).to(device) * 1e-3
    scores = h @ h.transpose(1, 2) / 8**0.5 + bias * (1 - mask[:, None, :])
    att = torch.softmax(scores, -1)
    out = (att @ h + noise).sum()
    print(step, mask.dtype, bias.dtype, f"{out.item():.15f}", f"{noise.sum().item():.12f}", torch.randn(2).tolist())
