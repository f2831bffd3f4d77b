# corpus: runnable
# Globals rebound by code the analysis cannot read: `exec(...)` with the module's globals in the
# loop, `exec` of a compiled code object, `eval` of an assignment expression, `runpy`-style
# `exec(open(path).read())`.
import os
import tempfile

import torch

torch.set_num_threads(1)
scale = 1.0
vals = []
for step in range(3):
    t = torch.full((2,), scale)
    exec("scale = scale * 3", globals())
    vals.append(t.sum().item())
print("exec string", vals)

width = 2
code = compile("width += 1", "<cfg>", "exec")
shapes = []
for step in range(3):
    z = torch.zeros(width)
    exec(code)
    shapes.append(z.numel())
print("exec code object", shapes)

n = 1
ns = []
for step in range(3):
    a = torch.arange(n)
    eval("globals().__setitem__('n', n + 2)")
    ns.append(a.numel())
print("eval setitem", ns)

path = os.path.join(tempfile.mkdtemp(), "anneal.py")
with open(path, "w") as fh:
    fh.write("temperature = temperature / 2\n")
temperature = 8.0
ts = []
for step in range(3):
    tt = torch.tensor(temperature)
    exec(open(path).read())
    ts.append(tt.item())
print("exec file", ts)
