# corpus: runnable
# Red team 30b, wave 1 (blind): pkg/engine.py's fit loop hands its running loss total to a hook that
# is a no-op there; this subclass records it, rounded, at every step.
import json

import torch
import torch.nn as nn

from pkg import Engine

torch.manual_seed(0)
torch.set_num_threads(1)


class LoggingEngine(Engine):
    def __init__(self, *args):
        super().__init__(*args)
        self.trace = []

    def on_batch_end(self, step, running):
        self.trace.append(round(running, 4))

    def on_epoch_end(self, epoch, mean):
        print(json.dumps({"epoch": epoch, "trace": self.trace[-3:]}))


g = torch.Generator().manual_seed(2)
batches = [(torch.randn(8, 3, generator=g), torch.randn(8, 1, generator=g)) for _ in range(4)]
model = nn.Linear(3, 1)
engine = LoggingEngine(model, torch.optim.SGD(model.parameters(), lr=0.1), batches)
engine.fit(2)
print(engine.trace)
