# corpus: runnable
# Leaky ReLUs spelled with max: `torch.maximum(x, s * x)` is a leaky ReLU only when 0 <= s <= 1
# (a slope of 2 or -0.5 gives another function); the slope comes from a constant, a variable,
# a config dict. Also `(x + x.abs()) / 2` near the float32 limit and at -inf, and
# `F.threshold(x, 0, 0)` on NaN.
import torch
import torch.nn.functional as F

torch.set_num_threads(1)
x = torch.tensor([-3.0, -1.0, -0.0, 0.0, 0.5, 2.0])
print("max slope 2", torch.maximum(x, 2.0 * x).tolist())
print("max slope -0.5", torch.max(x, -0.5 * x).tolist())
alpha = 1.5
print("max slope var", torch.maximum(x, alpha * x).tolist())
cfg = {"slope": 3.0}
print("max slope cfg", torch.maximum(x, x * cfg["slope"]).tolist())
print("max slope 0.1", torch.maximum(x, 0.1 * x).tolist())
big = torch.tensor([3.0e38, -float("inf"), 1.0, -2.0])
print("half abs", ((big + big.abs()) / 2).tolist(), (0.5 * (big + torch.abs(big))).tolist())
nan = torch.tensor([float("nan"), -1.0, 1.0])
print("threshold nan", F.threshold(nan, 0.0, 0.0).tolist())
print("where nan", torch.where(nan > 0, nan, torch.zeros_like(nan)).tolist())
print("where >= nan", torch.where(nan >= 0, nan, 0.0).tolist())
print("min-neg", (-torch.minimum(-x, torch.zeros_like(x))).tolist())
