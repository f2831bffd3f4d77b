# corpus: runnable
# NumPy's process-wide state read and changed in a preprocessing loop: `np.geterr()` /
# `np.seterr`, `np.get_printoptions()` / `np.set_printoptions`, and `np.seterr` called by a
# helper. The tensors built from that state differ per step.
import numpy as np
import torch

torch.set_num_threads(1)
np.seterr(all="warn")
feats = np.linspace(-1.0, 1.0, 12, dtype=np.float32).reshape(3, 4)

flags = []
for step in range(3):
    ignoring = torch.tensor(np.geterr()["divide"] == "ignore")
    np.seterr(divide="ignore")
    flags.append(bool(ignoring))
print("ignoring divide", flags)
np.seterr(all="warn")

precisions = []
for step in range(3):
    prec = torch.tensor(np.get_printoptions()["precision"])
    np.set_printoptions(precision=3 + step)
    precisions.append(int(prec))
    print(np.array2string(feats[step], precision=int(prec)))
np.set_printoptions(precision=8)
print("precisions", precisions)


def strict():
    np.seterr(over="raise", invalid="raise")


modes = []
for step in range(2):
    mode = torch.tensor([np.geterr()[k] == "raise" for k in ("over", "invalid")])
    strict()
    modes.append(mode.tolist())
np.seterr(all="warn")
print("raise modes", modes)
