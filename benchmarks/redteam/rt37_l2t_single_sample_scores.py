# corpus: runnable
# Red team 37 (blind): single-sample inference for a regression model and per-class logits read one
# at a time (batch size 1, as in many "predict.py" scripts). The model output has shape (1, 1) and the
# class logit is taken as logits[:, c] (shape (1,)); both are turned into numbers with .item() / float()
# and the lists into tensors at the end.
import torch
import torch.nn as nn

torch.manual_seed(21)
torch.set_num_threads(1)

reg = nn.Sequential(nn.Linear(5, 16), nn.ReLU(), nn.Linear(16, 1))
clf = nn.Linear(5, 3)
data = torch.randn(9, 5)

preds, cls_scores, margins = [], [], []
with torch.no_grad():
    for i in range(data.shape[0]):
        x = data[i : i + 1]
        out = reg(x)
        preds.append(out.item())
        logits = clf(x)
        cls_scores.append(logits[:, 1].item())
        margins.append(float(logits[:, 0] - logits[:, 2]))

p = torch.tensor(preds)
s = torch.tensor(cls_scores)
m = torch.tensor(margins)
print("shapes", tuple(p.shape), tuple(s.shape), tuple(m.shape))
print("pred", [f"{v:.9f}" for v in p.flatten().tolist()])
print("stack", torch.stack([p, s, m]).shape if p.shape == s.shape == m.shape else "ragged")
print("argmax", int(p.argmax()), int(s.argmax()), "top", p.topk(2).indices.tolist())
