# corpus: runnable
# Red team 61 probe (NOT blind): the blind kd_teacher_head program with the batches taken straight from a list of
# (x, y) pairs, so the teacher's input is the loop's own batch. The teacher is put in eval mode and frozen by its
# own method (`freeze`, models.py); from epoch 2 its head is released by another method and its parameters are
# added to the student's optimizer with `add_param_group`: the teacher's forward, still in eval mode, must then
# record a graph, and the optimizer the loop steps updates the teacher's head.
import torch
import torch.nn as nn
import torch.nn.functional as F

from losses import kd_loss
from models import C, D, Net

torch.manual_seed(6123)
torch.set_num_threads(1)
device = 'cuda' if torch.cuda.is_available() else 'cpu'

N = 400
protos = torch.randn(C, D) * 1.2
y_all = torch.randint(0, C, (N,))
x_all = protos[y_all] + torch.randn(N, D)
x_all, y_all = x_all.to(device), y_all.to(device)
batches = [(x_all[i:i + 50], y_all[i:i + 50]) for i in range(0, N, 50)]

teacher = Net(64).to(device)
opt_t = torch.optim.Adam(teacher.parameters(), lr=4e-3)
for step in range(100):
    idx = torch.randint(0, N, (64,))
    loss = F.cross_entropy(teacher(x_all[idx]), y_all[idx])
    opt_t.zero_grad()
    loss.backward()
    opt_t.step()
teacher.eval()
teacher.freeze()

student = Net(12).to(device)
opt = torch.optim.Adam(student.parameters(), lr=5e-3)
log = []
for epoch in range(5):
    if epoch == 2:
        teacher.release_head()
        opt.add_param_group({'params': teacher.fc.parameters(), 'lr': 1e-3})
    for xb, yb in batches:
        t_logits = teacher(xb)
        s_logits = student(xb)
        loss = 0.6 * kd_loss(s_logits, t_logits, 3.0) + 0.4 * F.cross_entropy(s_logits, yb)
        if epoch >= 2:
            loss = loss + 0.2 * F.cross_entropy(t_logits, yb)
        opt.zero_grad()
        loss.backward()
        opt.step()
    log.append(round(loss.item(), 5))
print('log', log)
print('checksum', round(sum(p.double().sum().item() for p in teacher.fc.parameters()), 6),
      round(sum(p.double().sum().item() for p in student.parameters()), 6))
