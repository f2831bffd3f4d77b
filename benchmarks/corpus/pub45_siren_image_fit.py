# corpus: runnable
# Labelled corpus copy of benchmarks/public45/p01 (labels: benchmarks/public45/README.md).
"""Public check 45, p01: SIREN (sine-activated MLP) fitting one image from pixel coordinates.

Source: https://github.com/JHLew/SIREN_pytorch  SIREN.py @ 1ffe0f26, train.py @ 357af522 (the two files in this
order; train.py's `from SIREN import *` dropped since the files are one here; SIREN.py's `InputMapping`, `MLP`,
`uniform_coordinates_3d`, `flat_to_2d` / `flat_to_3d` are kept as they are, unused by train.py).

Changes to make it run on the CPU in seconds:
- `einops` (not installed) -> a stand-in `rearrange` for the three patterns the file uses.
- `PIL.Image`, `torchvision.transforms.functional` (not installed) -> stand-ins: `Image.open` gives a seeded random
  16x12 RGB image (an object with `size`), `to_tensor` gives its float tensor, `to_pil_image(t)` an object whose
  `save(path)` only counts the calls.
- `.cuda()` on tensors and modules -> identity stand-ins (no GPU here): the source's `.cuda()` lines are unchanged.
- `os.makedirs` / `shutil.rmtree` of the validation folder and `torch.save` write under a fresh temporary folder.
- `n_iters = 25000` -> 60, the periodic validation `(i + 1) % 2500` -> `(i + 1) % 20`, `dim_hidden=256` -> 32.
- seeds (`torch`) set below; a `checksum` print at the end.
The source's lines are otherwise unchanged.
"""
# ---- stand-ins: einops, PIL, torchvision.transforms.functional, .cuda(); seeds; a temporary folder ----
import importlib.machinery as _machinery
import os as _os
import sys as _sys
import tempfile as _tempfile
import types as _types
import torch as _torch

_torch.manual_seed(0)
_tmp = _tempfile.mkdtemp()
_os.chdir(_tmp)


def _module(name):
    m = _types.ModuleType(name)
    m.__spec__ = _machinery.ModuleSpec(name, None)
    _sys.modules[name] = m
    return m


def _rearrange(t, pattern, **sizes):
    if pattern == 'h w c -> (h w) c':
        return t.reshape(-1, t.shape[-1])
    if pattern == '(h w) c -> () c h w':
        return t.reshape(sizes['h'], sizes['w'], -1).permute(2, 0, 1).unsqueeze(0)
    if pattern == 'h w t c -> (h w t) c':
        return t.reshape(-1, t.shape[-1])
    if pattern == '(h w t) c -> t c h w':
        return t.reshape(sizes['h'], sizes['w'], sizes['t'], -1).permute(2, 3, 0, 1)
    raise ValueError(pattern)


_module('einops').rearrange = _rearrange


class _Img:
    saved = 0

    def __init__(self, data):
        self.data = data
        self.size = (data.shape[2], data.shape[1])

    def save(self, path):
        _Img.saved += 1


def _open(path):
    g = _torch.Generator().manual_seed(1)
    return _Img(_torch.rand(3, 12, 16, generator=g))


_pil = _module('PIL')
_pil.Image = _module('PIL.Image')
_pil.Image.open = _open
_tv = _module('torchvision')
_tv.transforms = _module('torchvision.transforms')
_tv.transforms.functional = _module('torchvision.transforms.functional')
_tv.transforms.functional.to_tensor = lambda img: img.data.clone()
_tv.transforms.functional.to_pil_image = lambda t: _Img(t.detach())
_torch.Tensor.cuda = lambda self, *a, **k: self
_torch.nn.Module.cuda = lambda self, *a, **k: self

# ===== SIREN.py =====
import torch
from torch import nn
from einops import rearrange
import numpy as np


# normalize (0, 1) to (-1, 1)
def preprocess(t):
    return t * 2 - 1

# denormalize from (-1, 1) to (0, 1)
def postprocess(t):
    return torch.clamp((t + 1) / 2, min=0, max=1)  # paef: ok operator-fusion


class InputMapping:
# class InputMapping(nn.Module):
    def __init__(self, mapping_size=256, dim=2, B='gaussian', sigma=10):
        # super(InputMapping, self).__init__()
        if B == 'gaussian':
            self.B = torch.randn((dim, mapping_size)) * sigma
        elif B == 'uniform':
            self.B = torch.rand((dim, mapping_size)) * sigma
        else:
            raise ValueError('wrong B type. Got {}'.format(B))
        # self.B = nn.Parameter(self.B)

    def map(self, x):
    # def forward(self, x):
        x_proj = torch.mm((2 * np.pi * x), self.B)
        return torch.cat([torch.sin(x_proj), torch.cos(x_proj)], dim=-1)


def uniform_coordinates(h, w, _range=(-1, 1), flatten=True):
    _from, _to = _range
    coords = [torch.linspace(_from, _to, steps=h), torch.linspace(_from, _to, steps=w)]
    mgrid = torch.stack(torch.meshgrid(*coords), dim=-1)
    if flatten:
        mgrid = rearrange(mgrid, 'h w c -> (h w) c')

    return mgrid.detach()


def uniform_coordinates_3d(h, w, t, _range=(-1, 1), flatten=True):
    _from, _to = _range
    coords = [torch.linspace(_from, _to, steps=h),
              torch.linspace(_from, _to, steps=w),
              torch.linspace(_from, _to, steps=t)]
    mgrid = torch.stack(torch.meshgrid(*coords), dim=-1)
    if flatten:
        mgrid = rearrange(mgrid, 'h w t c -> (h w t) c')

    return mgrid.detach()


class Siren(nn.Module):
    def __init__(self, dim_in, dim_out, w0=1., c=6., is_first=False):
        super(Siren, self).__init__()
        self.dim_in = dim_in
        self.dim_out = dim_out
        self.is_first = is_first

        self.init_wb(c=c, w0=w0)
        self.w0 = w0
        self.c = c
        self.is_first = is_first

    def init_wb(self, c, w0):
        self.fc = nn.Linear(self.dim_in, self.dim_out)

        w_std = 1 / self.dim_in if self.is_first else np.sqrt(c / self.dim_in) / w0

        self.fc.weight.data.uniform_(-w_std, w_std)
        self.fc.bias.data.uniform_(-w_std, w_std)

    def forward(self, x):
        out = self.fc(x)
        if self.is_first:
            out = self.w0 * out
        out = torch.sin(out)
        return out


class SirenNet(nn.Module):
    def __init__(self, dim_in, dim_hidden, dim_out, n_layers, w0=1., w0_initial=30., c=6.):
        super(SirenNet, self).__init__()
        self.num_layers = n_layers
        self.dim_hidden = dim_hidden

        layers = []
        for i in range(self.num_layers):
            if i == self.num_layers - 1:  # if final layer
                final_layer = nn.Linear(dim_hidden, dim_out)
                w_std = np.sqrt(c / dim_hidden) / w0
                final_layer.weight.data.uniform_(-w_std, w_std)
                layers.append(final_layer)
                break

            if i == 0:  # if first layer
                layer_w0 = w0_initial
                layer_dim_in = dim_in
                is_first = True
            else:
                layer_w0 = w0
                layer_dim_in = dim_hidden
                is_first = False

            layers.append(Siren(
                dim_in=layer_dim_in,
                dim_out=dim_hidden,
                w0=layer_w0,
                c=c,
                is_first=is_first,
            ))

        self.layers = nn.Sequential(*layers)

    def forward(self, x, out_size=None):
        out = self.layers(x)
        if out_size is not None:
            if len(out_size) == 2:
                h, w = out_size
                out = rearrange(out, '(h w) c -> () c h w', h=h, w=w)
            elif len(out_size) == 3:
                h, w, t = out_size
                out = rearrange(out, '(h w t) c -> t c h w', h=h, w=w, t=t)
            else:
                raise ValueError('wrong output size')

        return postprocess(out)


class MLP(nn.Module):
    def __init__(self, dim_in, dim_hidden, dim_out, n_layers, fourier_dim=256):
        super(MLP, self).__init__()
        self.num_layers = n_layers
        if fourier_dim is None:
            self.use_fourier = False
        else:
            self.use_fourier = True
        if self.use_fourier:
            dim_in = fourier_dim * 2
        layers = []
        for i in range(self.num_layers):
            if i == 0:
                layers.append(nn.Linear(dim_in, dim_hidden))
                layers.append(nn.ReLU())
            elif i == self.num_layers - 1:
                layers.append(nn.Linear(dim_hidden, dim_out))
            else:
                layers.append(nn.Linear(dim_hidden, dim_hidden))
                layers.append(nn.ReLU())

        self.layers = nn.Sequential(*layers)

    def forward(self, x, out_size=None):
        out = self.layers(x)

        if out_size is not None:
            if len(out_size) == 2:
                h, w = out_size
                out = rearrange(out, '(h w) c -> () c h w', h=h, w=w)
            elif len(out_size) == 3:
                h, w, t = out_size
                out = rearrange(out, '(h w t) c -> t c h w', h=h, w=w, t=t)
            else:
                raise ValueError('wrong output size')

        return postprocess(out)


def flat_to_2d(_in, _size):
    h, w = _size
    out = rearrange(_in, '(h w) c -> () c h w', h=h, w=w)
    return out


def flat_to_3d(_in, _size):
    h, w, t = _size
    out = rearrange(_in, '(h w t) c -> t c h w', h=h, w=w, t=t)
    return out

# ===== train.py =====
from PIL import Image
from torchvision.transforms.functional import to_tensor, to_pil_image
from torch.nn.functional import mse_loss
import torch.optim as optim
import os
import shutil


def train(net, target_img, n_iters, save_path, validation_path=None):
    # preparation: clean validation directory
    if validation_path is None:
        validation_path = './validation'
    else:
        if os.path.exists(validation_path):
            shutil.rmtree(validation_path)
        os.makedirs(validation_path)

    optimizer = optim.Adam(net.parameters(), lr=1e-3)

    img = to_tensor(target_img).unsqueeze(0).cuda()
    h, w = img.shape[2:]

    print('start training...')
    for i in range(n_iters):
        coords = uniform_coordinates(h, w).cuda()  # paef: expect redundant-tensor
        output = net(coords, (h, w))
        loss = mse_loss(output, img)

        optimizer.zero_grad()
        loss.backward()
        optimizer.step()

        if (i + 1) % 20 == 0:
            print(i + 1, loss.item())

            with torch.no_grad():
                coords = uniform_coordinates(h, w).cuda()
                output = net(coords, (h, w))

            to_pil_image(output[0].cpu()).save('{}/{}.png'.format(validation_path, i + 1))
            torch.save(net.state_dict(), save_path)

    with torch.no_grad():
        coords = uniform_coordinates(h, w).cuda()
        output = net(coords, (h, w))
    to_pil_image(output[0].cpu()).save('{}/final.png'.format(validation_path))

    torch.save(net.state_dict(), save_path)


def inference(net, size):
    h, w = size
    with torch.no_grad():
        coords = uniform_coordinates(h, w).cuda()
        output = net(coords, (h, w))

    to_pil_image(output[0].cpu()).save('./for_fun.png')


if __name__ == '__main__':
    is_train = True
    net = SirenNet(dim_in=2, dim_hidden=32, dim_out=3, n_layers=5)
    img = Image.open('./examples/0002x4.png')
    w, h = img.size
    n_iters = 60
    save_path = './for_fun.pth'
    validation_path = './validation_for_fun'

    if is_train:
        train(net.cuda(), img, n_iters, save_path, validation_path)

    else:
        net.load_state_dict(torch.load(save_path))
        inference(net.cuda(), size=(h, w))

    # ---- checksum ----
    print("checksum", _Img.saved, round(float(sum(p.detach().abs().sum() for p in net.parameters())), 4))
