# corpus: runnable
# Red team 50 probe (NOT blind, written after first contact): lists of `.item()`s of tensors that library code
# changes in place after they are read (Adam's `state['step']`, BatchNorm's `num_batches_tracked` and an element of
# its `running_mean`, an element of Adam's `exp_avg`), turned into a tensor after the loop.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(5050)
torch.set_num_threads(1)
device = 'cuda' if torch.cuda.is_available() else 'cpu'

X = torch.randn(40, 3)
Y = X.sum(1, keepdim=True)
model = nn.Sequential(nn.Linear(3, 4), nn.BatchNorm1d(4), nn.Linear(4, 1)).to(device)
opt = torch.optim.Adam(model.parameters(), lr=0.05)
w = model[0].weight
bn = model[1]


def train():
    steps, tracked, means, moments = [], [], [], []
    for i in range(0, 40, 8):
        loss = F.mse_loss(model(X[i:i + 8].to(device)), Y[i:i + 8].to(device))
        opt.zero_grad()
        loss.backward()
        opt.step()
        steps.append(opt.state[w]['step'].item())
        tracked.append(bn.num_batches_tracked.item())
        means.append(bn.running_mean[0].item())
        moments.append(opt.state[w]['exp_avg'][0, 0].item())
    return torch.tensor(steps), torch.tensor(tracked), torch.tensor(means), torch.tensor(moments)


s, t, m, mo = train()
print('steps', s.tolist())
print('tracked', t.tolist())
print('means', [f'{v:.8f}' for v in m.tolist()])
print('moments', [f'{v:.8f}' for v in mo.tolist()])
