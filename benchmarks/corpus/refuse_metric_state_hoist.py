# corpus: runnable
"""A running confusion matrix filled in the loop and summarised from the same loop (not invariant)."""
import numpy as np
import torch
import torch.nn as nn

torch.manual_seed(0)
device = "cuda" if torch.cuda.is_available() else "cpu"
n_cls = 3
model = nn.Linear(5, n_cls).to(device)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
X = torch.randn(150, 5, device=device)
Y = torch.randint(0, n_cls, (150,), device=device)
all_preds, all_targets = [], []
confusion = np.zeros((n_cls, n_cls), dtype=np.int64)


def balanced_accuracy():
    per_class = np.diag(confusion) / np.maximum(confusion.sum(axis=1), 1)
    return float(per_class.mean())


for i in range(0, 150, 30):
    logits = model(X[i : i + 30])
    loss = nn.functional.cross_entropy(logits, Y[i : i + 30])
    opt.zero_grad()
    loss.backward()
    opt.step()
    all_preds.extend(logits.argmax(1).tolist())  # paef: ok host-sync
    all_targets.extend(Y[i : i + 30].tolist())  # paef: ok host-sync
    np.add.at(confusion, (all_targets[-30:], all_preds[-30:]), 1)
    counts = np.bincount(np.array(all_preds), minlength=n_cls)  # paef: refuse cpu-function
    score = balanced_accuracy()  # paef: refuse cpu-function
    print(f"batch {i // 30} counts {counts.tolist()} balanced acc {score:.4f}")
