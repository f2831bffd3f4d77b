# corpus: runnable
# Loops whose body leaves early (`continue` before a factory, `break`, `return`, an exception
# caught outside) and `try/except/finally` around factories that only make sense once a config
# key exists: moved above the loop, the factory would run where it never ran, or raise.
import torch

torch.set_num_threads(1)
cfg = {}
made = []
for step in range(4):
    if "scale" not in cfg:
        cfg["scale"] = 2.0 + step
        continue
    s = torch.tensor(cfg["scale"])
    made.append(float(s))
print("made", made)


def first_ok(rows):
    for r in rows:
        if r is None:
            return torch.tensor(-1.0)
        t = torch.tensor(float(len(rows)))
        return t + r
    return torch.tensor(0.0)


print("first", first_ok([None, 1.0]).item(), first_ok([]).item(), first_ok([2.0]).item())

seen = []
n_fail = 0
for step in range(3):
    try:
        z = torch.tensor(cfg["missing"])
        seen.append(float(z))
    except KeyError:
        n_fail += 1
    finally:
        if step == 1:
            cfg["missing"] = 9.0
print("after finally", seen, n_fail)

limits = {"cap": 3}
out = []
while True:
    cap = torch.tensor(limits["cap"])
    out.append(int(cap))
    limits["cap"] -= 1
    if limits["cap"] < 1:
        break
print("caps", out)


class Stop(Exception):
    pass


box = {"v": 1.0}
vals = []
try:
    for step in range(5):
        v = torch.tensor(box["v"])
        vals.append(float(v))
        if step == 2:
            raise Stop
        box["v"] *= 3
except Stop:
    pass
print("vals", vals)
