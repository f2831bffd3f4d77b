# corpus: runnable
# Red team 45 (blind): per-element loops over a float32 score vector whose bodies mix in Python and NumPy
# scalars: `float(x[i])` and `.item()` (float64 arithmetic per element, float32 when vectorised), a NumPy
# float64 temperature, a Python `max` clamp, a floor division by a float, and an int64 id vector scaled by a
# Python int past 2**31. Every result is printed bit-exactly.
import numpy as np
import torch

torch.manual_seed(5)
torch.set_num_threads(1)
device = 'cuda' if torch.cuda.is_available() else 'cpu'

scores = (torch.randn(50) * 3).to(device)
ids = torch.randint(0, 1000, (50,)).to(device)
temperature = np.float64(0.7)

calibrated = torch.empty_like(scores)
for i in range(len(scores)):
    calibrated[i] = float(scores[i]) * 0.1 + 0.3

shifted = torch.zeros_like(scores)
for i in range(scores.shape[0]):
    shifted[i] = scores[i].item() / 3.0 - 1.0

tempered = torch.zeros_like(scores)
for i in range(len(scores)):
    tempered[i] = scores[i] / temperature

clamped = torch.zeros_like(scores)
for i in range(len(scores)):
    clamped[i] = max(scores[i], 0.25)

binned = torch.zeros_like(scores)
for i in range(len(scores)):
    binned[i] = scores[i] // 0.7

hashed = torch.zeros_like(ids)
for i in range(len(ids)):
    hashed[i] = (ids[i] * 2654435761) % 4294967296


def bits(t):
    return [float(v).hex() for v in t.cpu().tolist()[:6]] + ["sum %.17g" % t.double().sum().item()]


print("calibrated", bits(calibrated))
print("shifted", bits(shifted))
print("tempered", bits(tempered))
print("clamped", bits(clamped))
print("binned", bits(binned))
print("hashed", hashed[:6].tolist(), hashed.dtype)
