import torch
import torch.nn as nn
import torch.nn.functional as F


def make_net(d, c, hidden=32, dropout=0.0):
    return nn.Sequential(nn.Linear(d, hidden), nn.ReLU(), nn.Dropout(dropout), nn.Linear(hidden, c))


def soft_labels(teacher, x, temperature):
    teacher.eval()
    probs = F.softmax(teacher(x) / temperature, dim=1)
    teacher.train()
    return probs


@torch.no_grad()
def ema_into(teacher, student, decay):
    for pt, ps in zip(teacher.parameters(), student.parameters()):
        pt.copy_(decay * pt + (1 - decay) * ps)
