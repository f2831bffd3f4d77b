# corpus: runnable
# Hand-written leaky ReLU and ReLU on tensors whose dtype the analysis cannot read: integer
# tensors from NumPy, a legacy `LongTensor`, `.type(torch.LongTensor)`, floor division with
# `rounding_mode`, `F.one_hot`, a dataset's labels; half and bfloat16 inputs.
import numpy as np
import torch
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_num_threads(1)

xn = torch.from_numpy(np.arange(-3, 3))
print("numpy", torch.where(xn > 0, xn, 0.5 * xn).tolist())

xl = torch.LongTensor([-2, 0, 4])
print("LongTensor", torch.where(xl > 0, xl, 0.25 * xl).tolist())

xt = torch.randn(4).mul(3).round().type(torch.LongTensor)
print("type", torch.where(xt > 0, xt, 0.1 * xt).tolist())

xd = torch.div(torch.arange(6) - 3, 2, rounding_mode="floor")
print("floor div", torch.where(xd > 0, xd, 0.2 * xd).tolist())

oh = F.one_hot(torch.tensor([0, 2, 1]), 3) - 1
print("one_hot", torch.where(oh > 0, oh, 0.3 * oh).tolist())

ds = torch.utils.data.TensorDataset(torch.randn(4, 2), torch.tensor([-1, 2, -3, 4]))
for _, lab in torch.utils.data.DataLoader(ds, batch_size=4):
    print("labels", torch.where(lab > 0, lab, 0.5 * lab).tolist())

xh = torch.randn(6).half()
print("half", torch.where(xh > 0, xh, 0.01 * xh).tolist())

xb = torch.randn(6).bfloat16()
print("bfloat16", torch.where(xb > 0, xb, 0.2 * xb).tolist())

xi = (torch.randn(5) * 4).int()
print("int relu", (xi * (xi > 0)).tolist(), torch.where(xi > 0, xi, 0).tolist())
