#!/usr/bin/env python
# coding: utf-8
# corpus: runnable
# Red team 60 (blind): a notebook exported with `jupyter nbconvert --to script` and then run as a script (the
# `get_ipython()` lines commented out by hand). Names change kind from cell to cell: `scores` is a float32
# tensor, then a float64 one; `idx` a Python list, then a tensor; `labels` a list of ints, then a bool mask.
# Several round trips through the host.

# In[1]:


# get_ipython().system('pip install -q torch')
# get_ipython().run_line_magic('matplotlib', 'inline')
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(6008)
np.random.seed(6008)
torch.set_num_threads(1)
device = 'cuda' if torch.cuda.is_available() else 'cpu'


# In[2]:


N, D = 400, 5
X = torch.randn(N, D)
y = (X[:, 0] - X[:, 1] + 0.2 * torch.randn(N) > 0).long()
X, y = X.to(device), y.to(device)
model = nn.Sequential(nn.Linear(D, 12), nn.ReLU(), nn.Linear(12, 2)).to(device)
opt = torch.optim.SGD(model.parameters(), lr=0.2)


# In[3]:


for epoch in range(30):
    loss = F.cross_entropy(model(X), y)
    opt.zero_grad()
    loss.backward()
    opt.step()
print('loss', round(loss.item(), 6))


# In[4]:


with torch.no_grad():
    scores = model(X).softmax(1)[:, 1]
ranked = torch.tensor(scores.cpu().tolist())
idx = [i for i in range(N) if ranked[i] > 0.5]
print(len(idx), ranked.dtype)


# In[5]:


scores = scores.double() * 1.000001
ranked = torch.tensor(scores.cpu().tolist())
top = torch.tensor(ranked.argsort(descending=True)[:10].tolist())
idx = torch.tensor(idx)
picked = torch.tensor(X[idx].cpu().numpy())
print(ranked.dtype, top.tolist()[:3], picked.shape)


# In[6]:


labels = y.cpu().tolist()
hard = torch.tensor([scores[i].item() for i in range(N) if labels[i] == 1])
labels = (scores > 0.5).cpu()
mask = torch.tensor(labels.tolist())
flipped = torch.tensor((~mask).numpy().astype(np.int64)).to(device)
print(hard.dtype, mask.dtype, flipped.dtype, int(flipped.sum()))


# In[7]:


centres = torch.tensor(np.array([X[y == k].mean(0).cpu().numpy() for k in range(2)]))
dist = torch.cdist(X.cpu(), centres)
print('checksum', round(ranked.double().sum().item() + hard.double().sum().item() + float(mask.sum()) + float(top.sum())
                        + picked.double().sum().item() + dist.double().sum().item(), 6))
