# corpus: runnable
# Red team 36 probe (NOT blind: written after first contact from rt36_el_calibrated_sigmoid, whose
# loops escaped an automatic rewrite only because they shared the loop variable `i`): Platt scaling
# of a classifier's scores filled element by element, gates filled row by row, a power-law bonus.
import hashlib

import torch
import torch.nn as nn

torch.manual_seed(2)
torch.set_num_threads(1)

N, D = 1000, 10
feats = torch.randn(N, D)
labels = (feats[:, 0] + 0.5 * feats[:, 1] > 0).float()
clf = nn.Linear(D, 1)
opt = torch.optim.SGD(clf.parameters(), lr=0.3)
for _ in range(30):
    loss = nn.functional.binary_cross_entropy_with_logits(clf(feats).squeeze(1), labels)
    opt.zero_grad()
    loss.backward()
    opt.step()

with torch.no_grad():
    scores = clf(feats).squeeze(1)

A, B = 1.7, -0.25  # Platt parameters fitted offline
probs = torch.empty_like(scores)
for i in range(len(scores)):
    probs[i] = torch.sigmoid(scores[i] * A + B)

gates = torch.empty_like(feats)
for r in range(len(feats)):
    gates[r] = torch.sigmoid(feats[r])

gated = feats * gates
print("probs sum", repr(probs.double().sum().item()))
print("probs digest", hashlib.sha256(probs.numpy().tobytes()).hexdigest()[:16])
print("gates digest", hashlib.sha256(gates.numpy().tobytes()).hexdigest()[:16])
print("gated sum", repr(gated.double().sum().item()))
brier = ((probs - labels) ** 2).mean()
print(f"brier {brier.item():.12f}")

bonus = torch.zeros_like(scores)
for k in range(len(scores)):
    bonus[k] = scores[k].abs() ** 1.5
print("bonus digest", hashlib.sha256(bonus.numpy().tobytes()).hexdigest()[:16])
