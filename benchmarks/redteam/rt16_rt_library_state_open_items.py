# corpus: runnable
# Red team 15's open items: library state changed by a callback the caller hands in (a
# parameter's method), by a library setter whose name reads like a getter and whose value is
# kept (`os.umask`, `threading.stack_size`), by a method of an object a library getter returns
# (`getLogger(name).setLevel`), read by getters with variable arguments.
import logging
import os
import threading

import numpy as np
import torch

torch.set_num_threads(1)


class Hooks:
    def after(self):
        np.seterr(divide="ignore" if np.geterr()["divide"] != "ignore" else "warn")


def train(hooks, steps):
    modes = []
    for step in range(steps):
        flag = torch.tensor(np.geterr()["divide"] == "ignore")
        hooks.after()
        modes.append(bool(flag))
    return modes


np.seterr(all="warn")
print("callback", train(Hooks(), 3))
np.seterr(all="warn")

masks = []
for step in range(3):
    prev = os.umask(0o022 + step)
    m = torch.tensor(prev)
    masks.append(int(m))
os.umask(0o022)
print("umask", masks[1:])

sizes = []
for step in range(3):
    old = threading.stack_size(32768 * (step + 2) * 16)
    s = torch.tensor(old)
    sizes.append(int(s))
threading.stack_size(0)
print("stack_size", sizes[1:])

NAME = "rt16.worker"
levels = []
for step in range(3):
    lvl = torch.tensor(logging.getLogger(NAME).getEffectiveLevel())
    logging.getLogger(NAME).setLevel(10 * (step + 1))
    levels.append(int(lvl))
print("logger via name", levels)

names = ["rt16.a", "rt16.b"]
levels = []
for step in range(3):
    lvl = torch.tensor(logging.getLogger(names[0]).level)
    logging.getLogger(names[step % 2]).setLevel(5 * (step + 1))
    levels.append(int(lvl))
print("logger via list", levels)

lg = logging.getLogger("rt16.c")
levels = []
for step in range(3):
    lvl = torch.tensor(logging.getLogger("rt16.c").level)
    lg.setLevel(7 * (step + 1))
    levels.append(int(lvl))
print("logger alias", levels)
