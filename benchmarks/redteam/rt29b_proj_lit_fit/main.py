# corpus: runnable
# Red team 29b, wave 1 (blind): a Lightning-shaped project - the module's *_step methods in
# lit.py, a hand-written fit loop in trainer.py, callbacks and a metric object in their own files.
import torch

from callbacks import EarlyStopping, History
from lit import LitClassifier
from trainer import Trainer

torch.manual_seed(0)
torch.set_num_threads(1)
g = torch.Generator().manual_seed(29)
w_true = torch.randn(6, 3, generator=g)


def make(n):
    x = torch.randn(n, 6, generator=g)
    return x, (x @ w_true).argmax(1)


train = [make(16) for _ in range(6)]
val = [make(16) for _ in range(3)]
module = LitClassifier(6, 3)
history = History()
trainer = Trainer(max_epochs=4, accumulate_grad_batches=2, callbacks=[EarlyStopping(patience=1), history])
trainer.fit(module, train, val)
print("train", trainer.train_losses)
print("val", history.rows)
print("params", round(sum(p.double().abs().sum().item() for p in module.parameters()), 6))
