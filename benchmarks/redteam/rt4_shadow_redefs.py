# corpus: runnable
# Names that mean something else at the loop than where the analysis looks: a helper redefined
# after the loop (the loop runs the first, impure one), a factory name rebound by a later
# import, a name deleted in the loop body, a class attribute changed by a method the loop calls.
import torch

calls = []


def normalise(values):
    calls.append(len(values))
    return [v / max(values) for v in values]


scale = [1.0, 2.0, 4.0]
for step in range(3):
    w = normalise(scale)  # paef: refuse cpu-function
    print(step, w, len(calls))


def normalise(values):  # a later phase only needs the identity
    return values


for step in range(2):
    mask = torch.ones(3)  # paef: expect-fix redundant-tensor
    print(step, (mask * step).tolist())
    del mask


class Schedule:
    weights = [1.0, 1.0, 1.0]

    def step(self):
        Schedule.weights = [w * 0.5 for w in Schedule.weights]


sched = Schedule()
for epoch in range(3):
    cw = torch.tensor(Schedule.weights)  # paef: refuse redundant-tensor
    sched.step()
    print(epoch, cw)


class Cfg:
    def __init__(self):
        self.classes = [0.2, 0.3, 0.5]

    def reweight(self):
        self.classes.reverse()


cfg = Cfg()
for epoch in range(2):
    prior = torch.tensor(cfg.classes)  # paef: refuse redundant-tensor
    cfg.reweight()
    print(epoch, prior)
