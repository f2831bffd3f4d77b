# corpus: runnable
# Red team 52 (blind): MoCo-style contrastive training. The model keeps its queue, the queue pointer
# and an update counter in buffers written by forward (models.py); the epoch loop (train.py) logs the
# pointer and a queue row after each step, and a kNN monitor evaluates the key encoder in eval mode.
import torch

from models import MoCo
from train import knn_accuracy, train_epoch

torch.manual_seed(5206)
torch.set_num_threads(1)
device = 'cuda' if torch.cuda.is_available() else 'cpu'
gen = torch.Generator().manual_seed(52)

centers = torch.randn(3, 10, generator=gen) * 2
ys = torch.arange(96) % 3
xs = centers[ys] + torch.randn(96, 10, generator=gen)
data, labels = xs.to(device), ys.to(device)

model = MoCo(10).to(device)
opt = torch.optim.SGD([p for p in model.parameters() if p.requires_grad], lr=0.05, momentum=0.9)
summary = []
for epoch in range(3):
    total, ptrs, qrow, losses = train_epoch(model, data[:64], opt, gen)
    acc = knn_accuracy(model, data[:64], labels[:64], data[64:], labels[64:])
    summary.append((round(total, 4), ptrs.tolist(), round(qrow.sum().item(), 4), round(acc, 4)))
    print('epoch', epoch, summary[-1], ptrs.dtype, losses.dtype)
print('updates', int(model.updates), model.updates.dtype)
print('checksum', round(sum(s[0] + sum(s[1]) + s[2] + s[3] for s in summary) + int(model.updates), 4))
