# corpus: runnable
# Hand-written leaky ReLUs whose intermediate names are read elsewhere: by a function
# defined in the module, through locals(), by an f-string after the loop, by a nested
# function, with `>=` instead of `>`, and after a `del`.
import torch
import torch.nn as nn

torch.manual_seed(0)
torch.set_num_threads(1)
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")


def report():
    print("positive share", round(pos.float().mean().item(), 4))


x = torch.randn(8, device=device, requires_grad=True)
pos = x > 0
y = torch.where(pos, x, 0.1 * x)
y.sum().backward()
report()
print("grad", x.grad.tolist())


def block(h):
    keep = h > 0
    out = torch.where(keep, h, 0.2 * h)
    return out, locals()


o, seen = block(torch.randn(4, device=device))
print(sorted(seen), round(o.sum().item(), 5))


def act_ge(h):
    return torch.where(h >= 0, h, 0.01 * h)


z = torch.tensor([-1.0, 0.0, 2.0], device=device, requires_grad=True)
act_ge(z).sum().backward()
print("ge grad", z.grad.tolist())


def outer(h):
    sign = h > 0

    def share():
        return sign.float().mean().item()

    r = torch.where(sign, h, 0.3 * h)
    return r.sum().item(), share()


print("nested", outer(torch.randn(6, device=device)))

lin = nn.Linear(4, 4).to(device)
for step in range(2):
    h = lin(torch.randn(2, 4, device=device))
    active = h > 0
    h = torch.where(active, h, 0.05 * h)
print(f"{active.sum().item()=}")
print(eval("active").shape)
