# corpus: runnable
# Hand-written activations applied to tensors of a `__torch_function__` subclass that counts the
# operations it sees (an op-budget audit) and to a subclass whose `__mul__` is overridden to
# quantise. The fused functional call would run different operations.
import torch
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_num_threads(1)


class Counted(torch.Tensor):
    ops = 0

    @classmethod
    def __torch_function__(cls, func, types, args=(), kwargs=None):
        Counted.ops += 1
        return super().__torch_function__(func, types, args, kwargs or {})


class Quantised(torch.Tensor):
    def __mul__(self, other):
        plain = torch.Tensor.__mul__(self, other).as_subclass(torch.Tensor)
        return (torch.round(plain * 8) / 8).as_subclass(Quantised)


x = torch.randn(6).as_subclass(Counted)
swish = x * torch.sigmoid(x)
leaky = torch.where(x > 0, x, 0.1 * x)
print(round(swish.sum().item(), 5), round(leaky.sum().item(), 5), Counted.ops)

q = torch.randn(6).as_subclass(Quantised)
act = q * torch.sigmoid(q)
lk = torch.maximum(q, q * 0.2)
print([round(v, 5) for v in act.tolist()], [round(v, 5) for v in lk.tolist()])
