# corpus: runnable
# Imported state changed by other spellings: `from os import environ` then `environ[k] = v`,
# `os.environ.update(...)`, `os.environ.setdefault` after a `pop`, `sys.path` grown by a helper,
# a module object made with `types.ModuleType` whose attribute a helper rebinds.
import os
import sys
import types
from os import environ

import torch

torch.set_num_threads(1)
environ["RT14B_A"] = "1"
vals = []
for step in range(3):
    t = torch.tensor(float(environ["RT14B_A"]))
    environ["RT14B_A"] = str(int(environ["RT14B_A"]) + 2)
    vals.append(t.item())
print("from os import environ", vals)

os.environ["RT14B_B"] = "2"
vals = []
for step in range(3):
    t = torch.zeros(int(os.environ["RT14B_B"]))
    os.environ.update({"RT14B_B": str(int(os.environ["RT14B_B"]) + 1)})
    vals.append(t.numel())
print("environ.update", vals)


def extend_path():
    sys.path.append("/nonexistent/rt14b")


n0 = len(sys.path)
vals = []
for step in range(3):
    t = torch.zeros(len(sys.path) - n0 + 1)
    extend_path()
    vals.append(t.numel())
del sys.path[n0:]
print("sys.path via helper", vals)

cfg = types.ModuleType("cfg")
cfg.scale = 1.0


def anneal():
    cfg.scale = cfg.scale / 2


vals = []
for step in range(3):
    t = torch.full((2,), cfg.scale)
    anneal()
    vals.append(t.sum().item())
print("ModuleType object", vals)
