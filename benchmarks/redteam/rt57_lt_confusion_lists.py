# corpus: runnable
# Red team 57 (blind): evaluation bookkeeping by Python indexing. A confusion matrix (a tensor, a NumPy array
# and a list of lists) filled by `cm[t, p] += 1` over zip(y.tolist(), pred.tolist()), per-class precision /
# recall lists turned into tensors, a list of per-batch accuracies made into a tensor, and the wrong
# predictions collected as (index, prob) pairs sorted in Python.
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(5704)
torch.set_num_threads(1)
device = 'cuda' if torch.cuda.is_available() else 'cpu'

C = 4
g = torch.Generator().manual_seed(574)
X = torch.randn(240, 6, generator=g)
centers = torch.randn(C, 6, generator=g) * 1.2
Y = torch.cdist(X, centers).argmin(1)
model = nn.Sequential(nn.Linear(6, 20), nn.ReLU(), nn.Linear(20, C)).to(device)
opt = torch.optim.Adam(model.parameters(), lr=0.02)
for epoch in range(15):
    for i in range(0, 180, 30):
        loss = F.cross_entropy(model(X[i:i + 30].to(device)), Y[i:i + 30].to(device))
        opt.zero_grad()
        loss.backward()
        opt.step()

model.eval()
cm = torch.zeros(C, C, dtype=torch.long)
cm_np = np.zeros((C, C), dtype=np.int64)
cm_list = [[0] * C for _ in range(C)]
batch_acc, wrong, offset = [], [], 180
with torch.no_grad():
    for i in range(180, 240, 16):
        probs = F.softmax(model(X[i:i + 16].to(device)), 1)
        pred = probs.argmax(1)
        y = Y[i:i + 16]
        for t, p in zip(y.tolist(), pred.tolist()):
            cm[t, p] += 1
            cm_np[t, p] += 1
            cm_list[t][p] += 1
        batch_acc.append((pred.cpu() == y).float().mean())
        for k, (t, p) in enumerate(zip(y.tolist(), pred.tolist())):
            if t != p:
                wrong.append((offset + k, probs[k, p].item()))
        offset += len(y)

precision, recall = [], []
for c in range(C):
    tp = cm[c, c].item()
    precision.append(tp / max(1, cm[:, c].sum().item()))
    recall.append(tp / max(1, sum(cm_list[c])))
prec_t = torch.tensor(precision)
rec_t = torch.tensor(recall, dtype=torch.float64)
f1 = 2 * prec_t * rec_t / (prec_t + rec_t).clamp_min(1e-12)
accs = torch.stack(batch_acc)
cm_from_list = torch.tensor(cm_list)
wrong.sort(key=lambda w: -w[1])
print(cm.tolist())
print('np equal', bool((cm_np == cm.numpy()).all()), 'list equal', bool(torch.equal(cm_from_list, cm)))
print('f1', [round(v, 6) for v in f1.tolist()], f1.dtype)
print('batch acc', [round(a, 4) for a in accs.tolist()], 'worst', wrong[:3])
print('checksum', round(f1.sum().item() + accs.sum().item() + sum(w[1] for w in wrong) + int(cm.trace()), 6))
