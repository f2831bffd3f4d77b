# corpus: runnable
# Red team 55 probe (not blind): evaluation loops (model.eval(), no backward written in the loop) that still
# need autograd: a fold-in step whose optimizer and backward sit in a helper, item scores kept to calibrate a
# temperature after the loop, and a contrastive memory whose entries keep their graph for a later update.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(5526)
torch.set_num_threads(1)
device = 'cuda' if torch.cuda.is_available() else 'cpu'

n_users, n_items, d = 20, 30, 6
model = nn.ModuleDict({'u': nn.Embedding(n_users, d), 'i': nn.Embedding(n_items, d)}).to(device)
truth = torch.randint(0, n_items, (n_users,), device=device)
fold_opt = torch.optim.SGD(model['u'].parameters(), lr=0.5)


def fold_step(loss):
    fold_opt.zero_grad()
    loss.backward()
    fold_opt.step()


model.eval()
hits = []
for u in range(n_users):
    uid = torch.tensor([u], device=device)
    logits = model['u'](uid) @ model['i'].weight.T
    loss = F.cross_entropy(logits, truth[uid])
    fold_step(loss)
    hits.append(int(logits.argmax(1).item() == truth[u].item()))

temp = nn.Parameter(torch.ones((), device=device))
kept = []
for u in range(n_users):
    uid = torch.tensor([u], device=device)
    kept.append(model['u'](uid) @ model['i'].weight.T)
t_opt = torch.optim.SGD([temp], lr=0.1)
for it in range(5):
    nll = F.cross_entropy(torch.cat(kept) / temp, truth)
    t_opt.zero_grad()
    nll.backward(retain_graph=True)
    t_opt.step()
item_grad = model['i'].weight.grad.abs().sum().item()

memory = []
for u in range(n_users):
    uid = torch.tensor([u], device=device)
    memory.append(F.normalize(model['u'](uid), dim=1))
bank = torch.cat(memory)
sim = bank @ bank.T
reg = (sim - torch.eye(n_users, device=device)).pow(2).mean()
model.zero_grad()
reg.backward()
user_grad = model['u'].weight.grad.abs().sum().item()

print('hits', sum(hits), 'temp', round(temp.item(), 6), 'item grad', round(item_grad, 5), 'user grad', round(user_grad, 6))
print('checksum', round(sum(hits) + temp.item() + item_grad + user_grad + model['u'].weight.sum().item(), 5))
