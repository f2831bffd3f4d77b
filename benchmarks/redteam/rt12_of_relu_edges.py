# corpus: runnable
# Hand-written ReLU / leaky ReLU on values where the spellings differ from the fused op: -inf of
# an attention mask (`x * (x > 0)` gives nan, relu 0), nan, integer inputs multiplied by a
# `.float()` mask (float32 result, relu keeps int64), half inputs promoted by a float mask,
# a mask cast to float64.
import torch

torch.set_num_threads(1)
logits = torch.tensor([[1.0, -2.0, float("-inf")], [0.5, float("nan"), 3.0]])
a = logits * (logits > 0)
b = torch.where(logits > 0, logits, torch.zeros_like(logits))
c = torch.max(logits, torch.zeros_like(logits))
print("inf/nan", a.tolist(), b.tolist(), c.tolist())

counts = torch.tensor([3, -1, 2, -5])
d = counts * (counts > 0).float()
e = counts * (counts > 0)
print("ints", d.dtype, d.tolist(), e.dtype, e.tolist())

h = torch.tensor([0.1, -0.2, 0.3], dtype=torch.float16)
f = h * (h > 0).float()
g = h * (h > 0).double()
print("half", f.dtype, g.dtype, f.tolist())

z = torch.tensor([-3.0, float("-inf"), 2.0])
k = torch.where(z > 0, z, 0.1 * z)
m = torch.max(z, 0.1 * z)
print("leaky", k.tolist(), m.tolist())
