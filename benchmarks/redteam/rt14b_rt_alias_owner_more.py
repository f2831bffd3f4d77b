# corpus: runnable
# Containers reached through their owner by other spellings: `getattr(trainer, "history")`,
# `vars(trainer)["history"]`, a helper returning the attribute, `state["hist"]` of a dict held
# as an attribute, a starred unpack of a one-element tuple.
import torch

torch.set_num_threads(1)


class Trainer:
    def __init__(self):
        self.history = [1.0]
        self.state = {"hist": [0.5]}

    def log(self):
        self.history.append(self.history[-1] + 1)
        self.state["hist"].append(0.5)


def get_history(t):
    return t.history


tr = Trainer()
a = getattr(tr, "history")
b = vars(tr)["history"]
c = get_history(tr)
d = tr.state["hist"]
(e,) = (tr.history,)
rows = []
for step in range(3):
    ta = torch.tensor(a)
    tb = torch.tensor(b)
    tc = torch.tensor(c)
    td = torch.tensor(d)
    te = torch.tensor(e)
    tr.log()
    rows.append((ta.numel(), tb.numel(), tc.numel(), td.numel(), te.numel()))
print("aliases", rows)
