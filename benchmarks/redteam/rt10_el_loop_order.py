# corpus: runnable
# Element loops whose order matters: a prefix recurrence written on the tensor being read, a
# per-element random draw, a loop that breaks at the first negative element, Python `math` on
# elements (float64) stored into float32, a target that is a view of its own source shifted by one.
import math

import torch

torch.manual_seed(0)
torch.set_num_threads(1)
x = torch.randn(8)

decay = x.clone()
for i in range(1, decay.shape[0]):
    decay[i] = decay[i - 1] * 0.5 + x[i]
print("recurrence", [round(v, 5) for v in decay.tolist()])

noisy = torch.zeros(8)
for i in range(x.shape[0]):
    noisy[i] = x[i] + 0.1 * torch.randn(())
print("random", [round(v, 5) for v in noisy.tolist()])

clipped = x.clone()
for i in range(clipped.shape[0]):
    if x[i] < -1.0:
        break
    clipped[i] = x[i] * 2
print("break", [round(v, 5) for v in clipped.tolist()])

soft = torch.zeros(8)
for i in range(x.shape[0]):
    soft[i] = math.exp(x[i]) / (1 + math.exp(x[i]))
print("math", [repr(v) for v in soft.tolist()])

buf = x.clone()
shifted = buf[1:]
for i in range(shifted.shape[0]):
    shifted[i] = buf[i] * 0.9
print("shifted", [round(v, 5) for v in buf.tolist()])

scaled = torch.zeros(8)
for i in range(x.shape[0]):
    scaled[i] = x[i] * 3 - x[: i + 1].sum()
print("prefix", [round(v, 5) for v in scaled.tolist()])
