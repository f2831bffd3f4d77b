# corpus: runnable
# Red team 49 probe (NOT blind, written after first contact): per-step tensors built from names that only a
# `match` rebinds, through the other capture forms: a star capture (`case [first, *rest]`), a mapping rest
# (`case {"kind": "aug", **opts}`), a class pattern's keyword capture (`case Stage(width=width)`), an
# `as` capture (`case ("warm" | "hot") as mode`), and an `except ... as` name.
from dataclasses import dataclass

import torch

torch.manual_seed(4911)
device = 'cuda' if torch.cuda.is_available() else 'cpu'


@dataclass
class Stage:
    width: int
    gain: float


rest = [0.0]
opts = {}
width = 2
mode = 'cold'
plan = [[1.0, 2.0], [3.0], Stage(4, 0.5), {'kind': 'aug', 'p': 0.25}, 'hot', [5.0, 6.0, 7.0]]
for step, item in enumerate(plan):
    match item:
        case [first, *rest]:
            pass
        case Stage(width=width):
            pass
        case {'kind': 'aug', **opts}:
            pass
        case ('warm' | 'hot') as mode:
            pass
    tail = torch.tensor(rest + [0.0])
    ramp = torch.ones(width)
    probs = torch.tensor(sorted(opts.values()) or [1.0])
    code = torch.zeros(len(mode))
    print(step, tail.tolist(), tuple(ramp.shape), probs.tolist(), tuple(code.shape))

label = 'none'
for step in range(4):
    try:
        if step % 2:
            raise KeyError('k' * (step + 1))
        pad = torch.zeros(1)
    except KeyError as label:
        pad = torch.zeros(len(str(label)))
        print('handler', step, tuple(pad.shape))
    print('except', step, tuple(pad.shape))
