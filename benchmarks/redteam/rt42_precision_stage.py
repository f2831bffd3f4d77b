# corpus: runnable
"""Two-stage fit: a float32 warm-up, then a float64 polish under a precision context of the
program's own; class weights and legacy-constructor tensors are built per step."""
import torch

torch.manual_seed(0)
device = 'cuda' if torch.cuda.is_available() else 'cpu'


class Precision:
    def __init__(self, dtype):
        self.dtype = dtype

    def __enter__(self):
        self.prev = torch.get_default_dtype()
        torch.set_default_dtype(self.dtype)
        return self

    def __exit__(self, *exc):
        torch.set_default_dtype(self.prev)
        return False


x = torch.randn(12, 3, dtype=torch.float64)
target = x @ torch.tensor([0.5, -1.0, 2.0], dtype=torch.float64) + 0.1
for stage, dtype in enumerate([torch.float32, torch.float64]):
    w = torch.zeros(3, dtype=dtype, device=device, requires_grad=True)
    with Precision(dtype):
        for step in range(3):
            cw = torch.tensor([0.2, 0.3, 0.5])
            offs = torch.Tensor([0.1, 0.1, 0.1]).to(device)
            pred = (x.to(device=device, dtype=dtype) * cw.to(device)).sum(1) + offs.sum()
            pred = pred + x.to(device=device, dtype=dtype) @ w
            loss = ((pred - target.to(device=device, dtype=dtype)) ** 2).mean()
            loss.backward()
            with torch.no_grad():
                w -= 0.05 * w.grad
            w.grad = None
            print(f"stage {stage} step {step} cw {cw.dtype} offs {offs.dtype} loss {loss.item():.15f}")

torch.set_default_tensor_type(torch.DoubleTensor)
vals = []
for step in range(2):
    scale = torch.tensor([1.0 / 3.0, 2.0 / 3.0])
    ids = torch.LongTensor([0, 1]).to(device)
    vals.append((scale.dtype, f"{scale.sum().item():.17f}", ids.dtype))
torch.set_default_tensor_type(torch.FloatTensor)
print(vals)
