# corpus: runnable
# Red team 44 (blind): the loops live in trainer.py (a hand-written Lightning-like Trainer that calls
# backward and step itself); PseudoLabelClassifier.validation_step trains on the validation split;
# a JSON logger callback reads the trainer's running loss.
import torch

from modules import Classifier, PseudoLabelClassifier
from trainer import JsonLogger, Trainer

torch.manual_seed(0)
torch.set_num_threads(1)
device = 'cuda' if torch.cuda.is_available() else 'cpu'

g = torch.Generator().manual_seed(1)
X = torch.randn(96, 5, generator=g)
Y = (X[:, 0] + 0.5 * X[:, 1] > 0).long() + (X[:, 2] > 1.0).long()
train = [(X[i:i + 8].to(device), Y[i:i + 8].to(device)) for i in range(0, 64, 8)]
val = [(X[i:i + 8].to(device), Y[i:i + 8].to(device)) for i in range(64, 96, 8)]

for cls in (Classifier, PseudoLabelClassifier):
    torch.manual_seed(3)
    module = cls(5, 3).to(device)
    logger = JsonLogger(every=5)
    trainer = Trainer(max_epochs=3, accumulate=2, callbacks=[logger])
    trainer.fit(module, train, val)
    print(cls.__name__, "steps", trainer.global_step, "running %.10f" % trainer.running_loss)
    for line in logger.lines:
        print("  log", line)
    w = module.body[0].weight.detach().cpu()
    print("  weight sum %.10f" % w.sum().item(), w.dtype, tuple(w.shape))

# A quick manual check of the last model on the validation split, batch by batch.
scores = []
for x, y in val:
    logits = module(x)
    scores.append(module.validation_step((logits, y), 0)["acc"])
print("manual val acc", ["%.6f" % s for s in scores])
print("final weight sum %.10f" % module.body[0].weight.detach().cpu().sum().item())
