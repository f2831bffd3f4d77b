# corpus: runnable
# Red team 51 probe (NOT blind: written after first contact, aimed at eval-without-no-grad on a module fixed on
# its own): the evaluation loop (evaluate.py) hands the model's scores to a HANDED metric object (metrics.py)
# that keeps them; the caller prints the kept scores and the computed AUROC tensor as they are.
import torch
import torch.nn as nn
import torch.nn.functional as F

from evaluate import evaluate
from metrics import AUROC

torch.manual_seed(5115)
torch.set_num_threads(1)
device = 'cuda' if torch.cuda.is_available() else 'cpu'

g = torch.Generator().manual_seed(65)
X = torch.randn(64, 5, generator=g)
Y = (X[:, 0] - X[:, 3] + 0.3 * torch.randn(64, generator=g) > 0).long()
train = [(X[i:i + 16], Y[i:i + 16]) for i in range(0, 32, 16)]
val = [(X[i:i + 16], Y[i:i + 16]) for i in range(32, 64, 16)]
model = nn.Sequential(nn.Linear(5, 8), nn.ReLU(), nn.Linear(8, 2)).to(device)
opt = torch.optim.Adam(model.parameters(), lr=0.05)
auroc = AUROC()
for epoch in range(3):
    for x, y in train:
        loss = F.cross_entropy(model(x.to(device)), y.to(device))
        opt.zero_grad()
        loss.backward()
        opt.step()
    evaluate(model, val, auroc, device)
    print(epoch, auroc.preds[0][:3], auroc.compute())
    auroc.reset()
