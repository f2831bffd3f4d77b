#! /usr/bin/env python
# Public check 47, p01: jzbontar/pixelcnn-pytorch `main.py` @ 2bf97108 (MIT licence), PixelCNN on MNIST.
# Changes to run on the CPU in seconds with torch 2.x (the source's own lines are unchanged unless listed):
#  1. torchvision is not installed: the stand-in block below replaces `from torchvision import datasets, transforms,
#     utils` (a synthetic "MNIST" of 64 images with pixels in {0, 1/255, ..., 1}, ToTensor as a no-op, save_image as
#     a stub); seeds (`torch.manual_seed(0)`).
#  2. the source is Python 2: `print epoch, np.mean(err)` -> `print(epoch, np.mean(err))`; `input.cuda(async=True)`
#     (`async` is a keyword in Python 3) -> `input.cuda(non_blocking=True)`; `loss.data[0]` (a 0-dim tensor cannot be
#     indexed in torch >= 0.5) -> `loss.data.item()` (the same Python float the source appended).
#  3. CPU only here: `net.cuda()`, `.cuda()` and `.cuda(non_blocking=True)` are kept in the source's lines, and
#     the stand-in block makes `Module.cuda` / `Tensor.cuda` return the object itself when no GPU is present.
#  4. `num_workers=1` -> `num_workers=0`; `range(50)` epochs -> `range(2)`; the sampler's two `range(28)` loops ->
#     `range(1)` / `range(4)` (4 pixels: the whole image takes minutes on the CPU); `torch.Tensor(144, ...)` ->
#     `torch.Tensor(8, ...)`.
#  5. a checksum of the weights and of the samples is printed at the end.

import os
import sys

import numpy as np
import torch
import torch.nn.functional as F
from torch import nn, optim, cuda, backends
from torch.autograd import Variable
from torch.utils import data

# ---- stand-ins (torchvision; .cuda() on a CPU-only machine) ----
import types

torch.manual_seed(0)


class _MNIST(data.Dataset):
    def __init__(self, root, train=True, download=False, transform=None):
        g = torch.Generator().manual_seed(1)
        self.x = torch.randint(0, 256, (64, 1, 28, 28), generator=g).float() / 255.
        self.y = torch.randint(0, 10, (64,), generator=g)

    def __len__(self):
        return len(self.x)

    def __getitem__(self, i):
        return self.x[i], self.y[i]


datasets = types.SimpleNamespace(MNIST=_MNIST)
transforms = types.SimpleNamespace(ToTensor=lambda: None)
utils = types.SimpleNamespace(save_image=lambda *a, **k: None)
if not torch.cuda.is_available():
    nn.Module.cuda = lambda self, *a, **k: self
    torch.Tensor.cuda = lambda self, *a, **k: self
# ---- end of stand-ins ----
backends.cudnn.benchmark = True


class MaskedConv2d(nn.Conv2d):
    def __init__(self, mask_type, *args, **kwargs):
        super(MaskedConv2d, self).__init__(*args, **kwargs)
        assert mask_type in {'A', 'B'}
        self.register_buffer('mask', self.weight.data.clone())
        _, _, kH, kW = self.weight.size()
        self.mask.fill_(1)
        self.mask[:, :, kH // 2, kW // 2 + (mask_type == 'B'):] = 0
        self.mask[:, :, kH // 2 + 1:] = 0

    def forward(self, x):
        self.weight.data *= self.mask
        return super(MaskedConv2d, self).forward(x)

fm = 32
net = nn.Sequential(
    MaskedConv2d('A', 1,   fm, 7, 1, 3), nn.ReLU(True),
    MaskedConv2d('B', fm,  fm, 7, 1, 3), nn.ReLU(True),
    MaskedConv2d('B', fm,  fm, 7, 1, 3), nn.ReLU(True),
    MaskedConv2d('B', fm,  fm, 7, 1, 3), nn.ReLU(True),
    MaskedConv2d('B', fm,  fm, 7, 1, 3), nn.ReLU(True),
    MaskedConv2d('B', fm, 256, 7, 1, 3))
net.cuda()

tr = data.DataLoader(datasets.MNIST('data', train=True, download=True, transform=transforms.ToTensor()),
                     batch_size=128, shuffle=True, num_workers=0, pin_memory=True)
sample = torch.Tensor(8, 1, 28, 28).cuda()
optimizer = optim.SGD(net.parameters(), lr=0.01, momentum=0.9, nesterov=True)
for epoch in range(2):
    # train
    err = []
    for input, _ in tr:
        input = Variable(input.cuda(non_blocking=True))
        target = Variable((input.data[:,0] * 255).long())
        loss = F.cross_entropy(net(input), target)
        err.append(loss.data.item())
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()

    # sample
    sample.fill_(0)
    for i in range(1):
        for j in range(4):
            out = net(Variable(sample, volatile=True))
            probs = F.softmax(out[:, :, i, j]).data
            sample[:, :, i, j] = torch.multinomial(probs, 1).float() / 255.
    utils.save_image(sample, 'sample_{:02d}.png'.format(epoch), nrow=12)

    print(epoch, np.mean(err))

print("checksum", round(sum(float(p.detach().double().sum()) for p in net.parameters()), 6),
      round(float(sample.double().sum()), 6))
