# corpus: runnable
# Red team 61 (blind): distillation with a teacher that is frozen, then partly released. The teacher is trained,
# put in eval mode and frozen (`Net.freeze`, models.py). The student learns from softened teacher logits and a
# hint loss on the teachers' hidden feature (kept by a forward hook in `teacher.feats`, compared through a
# trainable regressor). From epoch 3 the teacher's classifier head is released (`release_head`) and added to the
# student's optimizer with a small learning rate, so the teacher's forward, still in eval mode, must then record
# a graph. Per-epoch losses are Python floats; the temperature follows a schedule tensor.
import torch
import torch.nn as nn
import torch.nn.functional as F

from losses import hint_loss, kd_loss
from models import C, D, Net

torch.manual_seed(6109)
torch.set_num_threads(1)
device = 'cuda' if torch.cuda.is_available() else 'cpu'

N = 400
protos = torch.randn(C, D) * 1.2
y_all = torch.randint(0, C, (N,))
x_all = protos[y_all] + torch.randn(N, D)
x_all, y_all = x_all.to(device), y_all.to(device)

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
regressor = nn.Linear(16, 16).to(device)
opt = torch.optim.Adam(list(student.parameters()) + list(regressor.parameters()), lr=5e-3)
temps = torch.linspace(4.0, 2.0, 6)
log = []
released = False
for epoch in range(6):
    if epoch == 3 and not released:
        teacher.release_head()
        opt.add_param_group({'params': teacher.fc.parameters(), 'lr': 5e-4})
        released = True
    T = temps[epoch].item()
    total = 0.0
    for i in range(0, N, 50):
        xb, yb = x_all[i:i + 50], y_all[i:i + 50]
        t_logits = teacher(xb)
        s_logits = student(xb)
        loss = 0.6 * kd_loss(s_logits, t_logits, T) + 0.4 * F.cross_entropy(s_logits, yb)
        loss = loss + 0.1 * hint_loss(student.feats['hint'], teacher.feats['hint'], regressor)
        if released:
            loss = loss + 0.2 * F.cross_entropy(t_logits, yb)
        opt.zero_grad()
        loss.backward()
        opt.step()
        total += loss.item()
    log.append(total)
    print(f'epoch {epoch} T {T:.2f} loss {total:.4f}')

student.eval()
with torch.no_grad():
    s_acc = (student(x_all).argmax(1) == y_all).float().mean().item()
    t_acc = (teacher(x_all).argmax(1) == y_all).float().mean().item()
print('acc', round(s_acc, 4), round(t_acc, 4), 'log', [round(v, 4) for v in log])
print('checksum', round(sum(p.double().sum().item() for p in student.parameters()), 6),
      round(sum(p.double().sum().item() for p in teacher.fc.parameters()), 6))
