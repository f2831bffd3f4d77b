# corpus: runnable
# Constants built only on a branch the loop rarely or never takes, whose construction raises
# when evaluated before the loop: a ragged table, a value out of a narrow dtype's range, a
# negative size read from a config, a `match` case, a `while ... else`, a `for ... else`.
import torch

torch.manual_seed(0)
torch.set_num_threads(1)
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
RAGGED = [[1.0, 2.0], [3.0]]
WIDE = [1, 300]
cfg = {"extra_dim": -1, "mode": "plain"}
xs = torch.randn(4, 3)

out = []
for step in range(4):
    if step > 10:
        table = torch.tensor(RAGGED, device=device)
        out.append(table.sum().item())
    else:
        out.append(round(xs[step].sum().item(), 5))
print("ragged branch", out)

out = []
for step in range(3):
    if cfg["mode"] == "quantized":
        q = torch.tensor(WIDE, dtype=torch.uint8, device=device)
        out.append(q.sum().item())
    out.append(step)
print("uint8 branch", out)

out = []
for step in range(3):
    match cfg["mode"]:
        case "extra":
            pad = torch.zeros(cfg["extra_dim"], device=device)
            out.append(pad.numel())
        case _:
            out.append(step * 2)
print("match", out)

out = []
step = 0
while step < 3:
    if xs[step].sum() > 100:
        break
    step += 1
else:
    extra = torch.ones(cfg["extra_dim"] + 3, device=device)
    out.append(extra.sum().item())
print("while-else", out)

out = []
for step in range(3):
    try:
        v = torch.tensor(RAGGED[step], device=device)
    except IndexError:
        v = torch.zeros(1, device=device)
    out.append(v.sum().item())
print("try", out)
