# corpus: runnable
# Red team 58 (blind): knowledge distillation with progressive unfreezing. A wide teacher is trained on a made-up
# 3-class problem, then frozen. A student's backbone is pretrained on the labels alone, then its head is trained
# by distillation from the teacher with the backbone frozen; at epoch `unfreeze_at` the backbone's
# requires_grad is switched back on (schedule.maybe_unfreeze) and a second optimizer fine-tunes it. The student
# backbone stays in eval mode throughout distillation (frozen BatchNorm statistics), so its forward runs in eval
# mode both while frozen and after it is trained again.
import torch
import torch.nn.functional as F

from data import batches, make_data
from models import Classifier
from schedule import backbone_frozen_bn, freeze, maybe_unfreeze

torch.manual_seed(5806)
torch.set_num_threads(1)
device = 'cuda' if torch.cuda.is_available() else 'cpu'
cfg = {'unfreeze_at': 3, 'epochs': 6, 'T': 3.0, 'alpha': 0.7}

x, y = make_data(58)
x, y = x.to(device), y.to(device)
g = torch.Generator().manual_seed(580)


def fit(model, epochs, lr):
    opt = torch.optim.Adam(model.parameters(), lr=lr)
    model.train()
    for _ in range(epochs):
        for xb, yb in batches(x, y, 50, g):
            loss = F.cross_entropy(model(xb), yb)
            opt.zero_grad()
            loss.backward()
            opt.step()


teacher = Classifier(64).to(device)
fit(teacher, 5, 3e-3)
teacher.eval()
teacher.requires_grad_(False)

student = Classifier(12).to(device)
fit(student, 1, 3e-3)
freeze(student)
opt_head = torch.optim.Adam(student.head.parameters(), lr=5e-3)
opt_body = torch.optim.Adam(student.backbone.parameters(), lr=1e-3)
T, alpha = cfg['T'], cfg['alpha']
history = []
for epoch in range(cfg['epochs']):
    unfrozen = maybe_unfreeze(student, epoch, cfg) or epoch > cfg['unfreeze_at']
    backbone_frozen_bn(student)
    total, n = 0.0, 0
    for xb, yb in batches(x, y, 50, g):
        t_logits = teacher(xb)
        feats = student.features(xb)
        s_logits = student.head(feats)
        kd = F.kl_div(F.log_softmax(s_logits / T, -1), F.softmax(t_logits / T, -1), reduction='batchmean') * T * T
        loss = alpha * kd + (1 - alpha) * F.cross_entropy(s_logits, yb)
        opt_head.zero_grad()
        opt_body.zero_grad()
        loss.backward()
        opt_head.step()
        if unfrozen:
            opt_body.step()
        total += loss.item() * xb.shape[0]
        n += xb.shape[0]
    history.append(round(total / n, 5))

student.eval()
with torch.no_grad():
    acc_s = (student(x).argmax(-1) == y).float().mean().item()
    acc_t = (teacher(x).argmax(-1) == y).float().mean().item()
print('history', history)
print('acc', round(acc_s, 4), round(acc_t, 4))
print('checksum', round(sum(p.double().sum().item() for p in student.backbone.parameters()), 6))
