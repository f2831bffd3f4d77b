# corpus: runnable
# Factories whose result depends on global state the loop changes: the default dtype switched
# for a float64 phase, a `torch.device` context, grad mode toggled per phase; the loop-invariant
# arguments hide it.
import torch

torch.manual_seed(0)
torch.set_num_threads(1)

dtypes = []
for phase in ["fp32", "fp64", "fp32"]:
    torch.set_default_dtype(torch.float64 if phase == "fp64" else torch.float32)
    acc = torch.zeros(3)
    eye = torch.eye(2)
    dtypes.append((str(acc.dtype), str(eye.dtype)))
torch.set_default_dtype(torch.float32)
print("default dtype", dtypes)

modes = []
for phase in ["train", "eval"]:
    torch.set_grad_enabled(phase == "train")
    base = torch.ones(2)
    w = torch.ones(2, requires_grad=True)
    modes.append(((base * w).requires_grad, base.requires_grad))
torch.set_grad_enabled(True)
print("grad modes", modes)

where = []
for dev in ["cpu", "meta", "cpu"]:
    with torch.device(dev):
        buf = torch.zeros(2)
    where.append(buf.device.type)
print("device ctx", where)
