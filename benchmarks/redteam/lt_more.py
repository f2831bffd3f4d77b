# corpus: runnable
import torch
torch.manual_seed(0)
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
x = torch.randn(6, 3).to(device)
vals = []
for row in x:
    vals.append(row.max().item())
print(len(vals))
t = torch.tensor(vals)
vals.clear()
print(t)
probs = []
for row in x:
    probs.append(float(row.softmax(0)[0]))
probs_t = torch.tensor(probs)
print(probs_t.numpy().round(4))
ranks = []
for i in range(x.size(0)):
    ranks.append(int(x[i].argmax()))
r = torch.tensor(ranks, device=device)
print(r)
