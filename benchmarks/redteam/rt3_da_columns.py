# corpus: runnable
# Dict-of-lists batches whose per-batch dtype differs from the whole column's (an int column with a
# float later, bools mixed with ints), ragged columns, and a column rebound between batches.
import torch

data = {"x": [1, 2, 3, 4, 5.5, 6], "m": [True, False, True, 2, 0, 1], "y": [0, 1, 0, 1, 1, 0]}
for s in range(0, 6, 2):
    xb = torch.tensor(data["x"][s : s + 2])
    mb = torch.tensor(data["m"][s : s + 2])
    yb = torch.tensor(data["y"][s : s + 2])
    print(xb.dtype, xb, mb.dtype, mb, yb)

seqs = {"tok": [[1, 2], [3, 4], [5, 6, 7], [8, 9, 10]], "lab": [0, 1, 0, 1]}
for s in range(0, 4, 2):
    tb = torch.tensor(seqs["tok"][s : s + 2])
    lb = torch.tensor(seqs["lab"][s : s + 2])
    print(tb.shape, lb)

rows = {"f": [0.5, 1.5, 2.5, 3.5], "g": [1, 2, 3, 4]}
for idx in [[0, 1], [2, 3]]:
    fb = torch.tensor([rows["f"][i] for i in idx])
    gb = torch.tensor([rows["g"][i] for i in idx])
    print(fb, gb)
    rows = {"f": [v * 2 for v in rows["f"]], "g": rows["g"]}
