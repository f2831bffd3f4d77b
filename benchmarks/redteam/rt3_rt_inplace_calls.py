# corpus: runnable
# A tensor rebuilt per step and then changed in place by a function (not a method): `nn.init`
# on a slice, `torch.relu_`, `F.relu_`, `torch.Tensor.add_`, `F.dropout(inplace=True)`, a helper.
import torch
import torch.nn.functional as F

torch.manual_seed(0)
res = []
for step in range(3):
    mask = torch.ones(4)
    torch.nn.init.constant_(mask[step : step + 1], 0.0)
    res.append(mask.tolist())
print(res)

res = []
for step in range(3):
    base = torch.tensor([-1.0, 2.0]) * 1.0
    v = torch.tensor([-1.0, 2.0])
    torch.relu_(v)
    res.append(v.tolist())
    v[0] = v[0] - step
print(res)

res = []
for step in range(3):
    v = torch.tensor([-1.0, 2.0])
    F.relu_(v[:1])
    res.append(v.tolist())
    v.data[0] = -5.0
print(res)

res = []
for step in range(3):
    acc = torch.zeros(2)
    torch.Tensor.add_(acc, 1.0)
    res.append(acc.tolist())
print(res)

res = []
for step in range(3):
    acc = torch.zeros(2)
    torch.add(acc, 1.0, out=acc)
    res.append(acc.tolist())
print(res)


def bump(t):
    t[0] += 1
    return t


res = []
for step in range(3):
    acc = torch.zeros(2)
    bump(acc)
    res.append(acc.tolist())
print(res)

res = []
for step in range(3):
    acc = torch.zeros(2)
    for row in [acc]:
        row += 1
    res.append(acc.tolist())
print(res)

res = []
for step in range(3):
    acc = torch.zeros(2)
    holder = {"t": acc}
    holder["t"][1] = step + holder["t"][1]
    res.append(acc.tolist())
print(res)

res = []
for step in range(3):
    acc = torch.zeros(2)
    arr = acc.numpy()
    arr += 1
    res.append(acc.tolist())
print(res)
