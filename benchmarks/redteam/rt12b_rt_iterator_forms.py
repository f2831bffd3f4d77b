# corpus: runnable
# Wave 2, against the "library iterator consumed" refusal: an iterator handed to a function as
# a parameter, kept on an object, unpacked with `[*rdr]`, a `Path.glob` generator, a program
# helper returning `csv.reader`, `dict(reader)`.
import csv
import io
import tempfile
from pathlib import Path

import torch

torch.set_num_threads(1)


def epochs(rdr):
    out = []
    for epoch in range(3):
        t = torch.tensor([[float(v) for v in r] for r in rdr])
        out.append(t.numel())
    return out


print("parameter", epochs(csv.reader(io.StringIO("1,2\n3,4\n"))))


class Source:
    def __init__(self):
        self.rows = csv.reader(io.StringIO("5,6\n7,8\n"))


src = Source()
sizes = []
for epoch in range(3):
    t = torch.tensor([[float(v) for v in r] for r in src.rows])
    sizes.append(t.numel())
print("attribute", sizes)

star = csv.reader(io.StringIO("1,2\n"))
sizes = []
for epoch in range(3):
    t = torch.tensor([len(r) for r in [*star]])
    sizes.append(t.numel())
print("starred", sizes)

tmp = Path(tempfile.mkdtemp())
for name in ("a.txt", "bb.txt"):
    (tmp / name).write_text("x")
files = tmp.glob("*.txt")
sizes = []
for epoch in range(3):
    t = torch.tensor(sorted(len(f.name) for f in files))
    sizes.append(t.numel())
print("glob", sizes)


def open_rows():
    return csv.reader(io.StringIO("9,10\n"))


rows = open_rows()
pairs = csv.reader(io.StringIO("k,1\nm,2\n"))
sizes = []
for epoch in range(3):
    t = torch.tensor([[float(v) for v in r] for r in rows])
    d = torch.tensor([float(v) for v in dict(pairs).values()])
    sizes.append((t.numel(), d.numel()))
print("helper", sizes)
