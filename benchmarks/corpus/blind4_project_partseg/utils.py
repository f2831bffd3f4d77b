import torch


def to_device(x, device):
    return x.to(device)


def one_hot(labels, n):
    out = torch.zeros(len(labels), n)
    out[torch.arange(len(labels)), labels] = 1.0
    return out


class AverageMeter:
    def __init__(self):
        self.sum, self.count = 0.0, 0

    def update(self, val, n=1):
        self.sum += val * n
        self.count += n

    @property
    def avg(self):
        return self.sum / max(self.count, 1)


def compute_iou(pred, target, n_classes):
    ious = []
    for c in range(n_classes):
        inter = ((pred == c) & (target == c)).sum().item()  # paef: ok host-sync
        union = ((pred == c) | (target == c)).sum().item()  # paef: ok host-sync
        ious.append(1.0 if union == 0 else inter / union)
    return sum(ious) / len(ious)
