# corpus: runnable
"""DINO-style self-distillation on synthetic vectors: a student and an EMA teacher, two
global and two local "crops" (random masking and noise) per sample, the teacher output
centred by a running center updated every step, teacher temperature warmed up from a NumPy
schedule indexed by epoch, a MetricLogger fed every step."""
from collections import defaultdict

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset

torch.manual_seed(0)
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
OUT_DIM, EPOCHS = 32, 4


class DINOLoss(nn.Module):
    def __init__(self, out_dim, ncrops, warmup_teacher_temp, teacher_temp, warmup_epochs, nepochs, student_temp=0.1, center_momentum=0.9):
        super().__init__()
        self.student_temp, self.center_momentum, self.ncrops = student_temp, center_momentum, ncrops
        self.register_buffer("center", torch.zeros(1, out_dim))
        self.teacher_temp_schedule = np.concatenate((np.linspace(warmup_teacher_temp, teacher_temp, warmup_epochs), np.ones(nepochs - warmup_epochs) * teacher_temp))

    def forward(self, student_output, teacher_output, epoch):
        student_out = (student_output / self.student_temp).chunk(self.ncrops)
        temp = self.teacher_temp_schedule[epoch]
        teacher_out = F.softmax((teacher_output - self.center) / temp, dim=-1).detach().chunk(2)
        total_loss, n_loss_terms = 0, 0
        for iq, q in enumerate(teacher_out):
            for v in range(len(student_out)):
                if v == iq:
                    continue
                total_loss += torch.sum(-q * F.log_softmax(student_out[v], dim=-1), dim=-1).mean()
                n_loss_terms += 1
        self.update_center(teacher_output)
        return total_loss / n_loss_terms

    @torch.no_grad()
    def update_center(self, teacher_output):
        batch_center = teacher_output.sum(dim=0, keepdim=True) / len(teacher_output)
        self.center = self.center * self.center_momentum + batch_center * (1 - self.center_momentum)


class SmoothedValue:
    def __init__(self):
        self.values = []

    def update(self, v):
        self.values.append(v)

    def __str__(self):
        return f"{np.mean(self.values[-20:]):.4f}"


class MetricLogger:
    def __init__(self):
        self.meters = defaultdict(SmoothedValue)

    def update(self, **kwargs):
        for k, v in kwargs.items():
            if isinstance(v, torch.Tensor):
                v = v.item()  # paef: expect host-sync
            self.meters[k].update(v)

    def __str__(self):
        return "  ".join(f"{k}: {m}" for k, m in self.meters.items())


def augment(x, keep):
    mask = (torch.rand_like(x) < keep).float()
    return x * mask + 0.1 * torch.randn_like(x)


def head():
    return nn.Sequential(nn.Linear(16, 64), nn.GELU(), nn.Linear(64, OUT_DIM))


data = torch.randn(512, 16) + torch.randint(0, 4, (512, 1)).float()
loader = DataLoader(TensorDataset(data), batch_size=64, shuffle=True, drop_last=True)  # paef: ok pageable-transfer
student = head().to(device)
teacher = head().to(device)
teacher.load_state_dict(student.state_dict())
for p in teacher.parameters():
    p.requires_grad = False
dino_loss = DINOLoss(OUT_DIM, 4, 0.04, 0.07, 2, EPOCHS).to(device)
optimizer = torch.optim.AdamW(student.parameters(), lr=1e-3)
momentum_schedule = np.linspace(0.99, 1.0, EPOCHS * len(loader))
it = 0
for epoch in range(EPOCHS):
    metric_logger = MetricLogger()
    for (x,) in loader:
        x = x.to(device)
        crops = [augment(x, 0.9), augment(x, 0.9), augment(x, 0.5), augment(x, 0.5)]
        teacher_output = teacher(torch.cat(crops[:2]))
        student_output = student(torch.cat(crops))
        loss = dino_loss(student_output, teacher_output, epoch)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        with torch.no_grad():
            m = momentum_schedule[it]
            for param_q, param_k in zip(student.parameters(), teacher.parameters()):
                param_k.data.mul_(m).add_((1 - m) * param_q.detach().data)
        it += 1
        metric_logger.update(loss=loss)
    print(f"epoch {epoch} {metric_logger}")
