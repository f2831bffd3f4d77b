# corpus: runnable
"""A detector's training loop in the style of the RetinaNet scripts: the whole step sits in
`try:` so that a failing batch is printed and skipped (`except Exception: continue`), a zero
loss skips the step through `bool(loss == 0)`, the running loss is read with `float(loss)` every
step, and a periodic validation pass reads its loss with `.item()` inside its own `try`."""
import collections

import numpy as np
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset

torch.manual_seed(0)
torch.set_num_threads(1)
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")


class TinyHead(nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.body = nn.Sequential(nn.Linear(12, 16), nn.ReLU())
        self.cls = nn.Linear(16, 3)
        self.reg = nn.Linear(16, 4)

    def forward(self, x):
        h = self.body(x)
        return self.cls(h), self.reg(h)


data = TensorDataset(torch.randn(48, 12), torch.randint(0, 3, (48,)), torch.randn(48, 4))
loader = DataLoader(data, batch_size=8, shuffle=False, pin_memory=torch.cuda.is_available())
model = TinyHead().to(device)
optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
loss_hist = collections.deque(maxlen=50)
smooth_l1 = nn.SmoothL1Loss()

for epoch in range(2):
    model.train()
    epoch_loss = []
    for it, (x, labels, boxes) in enumerate(loader):
        try:
            optimizer.zero_grad()
            x = x.to(device, non_blocking=True)
            logits, deltas = model(x)
            cls_loss = nn.functional.cross_entropy(logits, labels.to(device, non_blocking=True))
            reg_loss = smooth_l1(deltas, boxes.to(device, non_blocking=True))
            loss = cls_loss + reg_loss
            if bool(loss == 0):  # paef: ok host-sync
                continue
            loss.backward()
            torch.nn.utils.clip_grad_norm_(model.parameters(), 0.1)
            optimizer.step()
            loss_hist.append(float(loss))  # paef: expect host-sync
            epoch_loss.append(float(loss))  # paef: expect host-sync
            if it % 4 == 0:
                print("epoch {} it {} loss {:.4f} running {:.4f}".format(epoch, it, loss.item(), np.mean(loss_hist)))
        except Exception as e:
            print("skipped:", e)
            continue
    print("epoch", epoch, "mean loss", round(float(np.mean(epoch_loss)), 4))

model.eval()
total = 0.0
with torch.no_grad():
    for x, labels, boxes in loader:
        try:
            logits, _ = model(x.to(device, non_blocking=True))
            total += nn.functional.cross_entropy(logits, labels.to(device, non_blocking=True)).item()  # paef: ok host-sync
        except RuntimeError:
            continue
print("validation loss", round(total / len(loader), 4))
