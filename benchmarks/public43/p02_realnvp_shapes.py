"""Public check 43, p02: RealNVP (affine couplings, checkerboard and channel masks, dequantization) on small images.

Source: https://github.com/kareemalsawah/RealNVP-torch  utils.py @ 1f0b985a, models/preprocessor.py @ 1f0b985a,
models/RealNVP.py @ 08709339, train/datasets.py @ 1f0b985a, train/train.py @ 08709339 (the files in this order; the
package-relative imports `from ..utils import *` / `from .preprocessor import *` dropped since the files are one here).
The repository's driver (`train_models.py`, run by `train_models_mnist_usps.sh`) is not in the stored index: the
driver at the end is written here from the functions' signatures (build the flow, `train`, `generate_samples`).

Changes to make it run on the CPU in seconds:
- `matplotlib` (not installed) -> an empty stand-in (only used when `plot=True` / `num_to_plot > 0`, neither here).
- `tqdm` (not installed) -> a stand-in that returns the iterable.
- the dataset pickle (`/content/RealNVP/data/shapes.pkl`, downloaded by the shell script) -> `np.load` of that path
  answers a seeded synthetic dict (8 train / 4 test binary 4x4 images) through a wrapper registered below.
- seeds (`numpy`, `torch`) set below.
- a `checksum` print at the end.
The source's lines are otherwise unchanged.
"""
# ---- stand-ins: matplotlib, tqdm, the dataset pickle; seeds ----
import sys as _sys
import types as _types
import numpy as _np
import torch as _torch

import importlib.machinery as _machinery

def _module(name, **attrs):
    mod = _types.ModuleType(name)
    mod.__spec__ = _machinery.ModuleSpec(name, None)
    mod.__dict__.update(attrs)
    _sys.modules[name] = mod
    return mod

_module("matplotlib", pyplot=_module("matplotlib.pyplot"))
_module("tqdm", tqdm=lambda it, **kw: it)

_real_load = _np.load
def _load(path, *a, **kw):
    if str(path).startswith("/content/"):
        rng = _np.random.RandomState(0)
        return {"train": (rng.rand(8, 4, 4, 1) > 0.5).astype(_np.uint8), "train_labels": _np.zeros(8, dtype=_np.int64),
                "test": (rng.rand(4, 4, 4, 1) > 0.5).astype(_np.uint8), "test_labels": _np.zeros(4, dtype=_np.int64)}
    return _real_load(path, *a, **kw)
_np.load = _load
_np.random.seed(0)
_torch.manual_seed(0)
# ---- end of stand-ins ----

# ===== utils.py =====
import numpy as np
import torch
import torch.nn as nn
import matplotlib.pyplot as plt

def uniform_dist(a,b,size):
    std_unif = torch.rand(size)
    return std_unif*(b-a)+a

def safe_log(x):
    return torch.log(x+1e-4)

# ===== models/preprocessor.py =====
import numpy as np
import torch
import torch.nn as nn

class Preprocessor(nn.Module):
    def __init__(self,max_val=1,alpha=0.05):
        super().__init__()
        self.max_val = max_val + 1
        self.alpha = alpha

    def forward(self,x,invert=False):
        '''
        Parameters
        ----------
        x: torch.FloatTensor, shape = (batch_size,...)

        invert: bool
        
        Returns
        -------
        new_x: torch.FloatTensor, shape = x.shape
            Preprocessed x
        log_det_jac: torch.FloatTensor, shape = (batch_size,)
            Log determinant of the jacobian of the preprocessing transformations done on x
        '''
        if invert:
            x = torch.sigmoid(x)  # Inverse of logit
            new_x = self.max_val*(x-self.alpha)/(1-2*self.alpha)
            log_x = safe_log(x)
            log_1_x = safe_log(1-x)
            log_det_jac = log_x + log_1_x - np.log(1-2*self.alpha) + np.log(self.max_val)

            return new_x, log_det_jac
        else:
            x = x + uniform_dist(0,1,x.shape).to(x.device)  # Dequantization
            
            # Logit Trick
            x /= self.max_val
            x = (1-2*self.alpha)*x + self.alpha
            log_x = safe_log(x)
            log_1_x = safe_log(1-x)
            new_x = log_x - log_1_x
            log_det_jac = np.log((1-2*self.alpha)/self.max_val) - log_x - log_1_x

            return new_x, log_det_jac

# ===== models/RealNVP.py =====
import numpy as np
import torch
import torch.nn as nn

class ResBlock(nn.Module):
    def __init__(self,n_filters):
        super().__init__()

        self.convs = nn.Sequential(nn.Conv2d(n_filters,n_filters,kernel_size=(1,1)),
                                    nn.BatchNorm2d(n_filters),
                                    nn.ReLU(),
                                    nn.Conv2d(n_filters,n_filters,kernel_size=(3,3),padding=1),
                                    nn.BatchNorm2d(n_filters),
                                    nn.ReLU(),
                                    nn.Conv2d(n_filters,n_filters,kernel_size=(1,1)))

    def forward(self,x):
        h = self.convs(x)
        return h + x

class SimpleResnet(nn.Module):
    def __init__(self,in_channels,n_out,n_filters=128,n_blocks=8):
        super().__init__()

        self.conv_1 = nn.Conv2d(in_channels,n_filters,kernel_size=(3,3),padding=1)
        layers = []
        for i in range(n_blocks):
            layers.append(ResBlock(n_filters))

        layers.append(nn.ReLU())
        self.layers = nn.Sequential(*layers)

        self.conv_2 = nn.Conv2d(n_filters,n_out,kernel_size=(3,3),padding=1)

    def forward(self,x):
        x = self.conv_1(x)
        x = self.layers(x)
        x = self.conv_2(x)

        return x

class AffineCoupling(nn.Module):
    order_type = 0
    def __init__(self,in_shape,n_filters=128,use_bn=False):
        AffineCoupling.order_type += 1
        super().__init__()

        self.mask = None
        self.use_bn = use_bn
        self.net = SimpleResnet(in_channels=in_shape[0],n_out=2,n_filters=n_filters)
        self.scale = nn.Parameter(torch.zeros(1))
        self.scale_shift = nn.Parameter(torch.zeros(1))

    def forward(self,x,invert=False):
        assert self.mask is not None

        x_ = x*self.mask
        log_scale, t = torch.chunk(self.net(x_), 2, dim=1)
        log_scale = self.scale*torch.tanh(log_scale) + self.scale_shift

        t = t * (1.0 - self.mask)
        log_scale = log_scale * (1.0 - self.mask)
        if invert:
            z = (x - t) / (torch.exp(log_scale) + 1e-4)
            log_det_jacobian = -1*log_scale
        else:
            z = x * torch.exp(log_scale) + t
            log_det_jacobian = log_scale

        return z, log_det_jacobian

class AffineCouplingCheckboard(AffineCoupling):
    def __init__(self,in_shape):
        '''
        Parameters
        ----------
        in_shape: tuple[int]
            Shape of the inputs represented as (C,H,W)
        '''
        super().__init__(in_shape)
        C,H,W = in_shape

        self.mask = torch.ones(1,H,W)

        # Inefficient way to do a checkboard pattern, but it shouldn't matter as it is only in the initialization
        # x = np.arange(8*8).reshape(8,8)
        # print(x)
        # x.reshape(8,2,2,2).transpose(0,3,1,2)
        for h in range(H):
            counter = h%2
            for w in range(W):
                if counter%2 == 0:
                    self.mask[0][h][w] = 0
                counter += 1

        if AffineCoupling.order_type%2 == 0:
            self.mask = 1 - self.mask

        self.mask = nn.Parameter(self.mask)
        self.mask.requires_grad = False

class AffineCouplingChannel(AffineCoupling):
    def __init__(self,in_shape):
        super().__init__(in_shape)
        C,H,W = in_shape

        self.mask = torch.ones(C,1,1)

        self.mask[:C//2] *= 0

        if AffineCoupling.order_type%2 == 0:
            self.mask = 1 - self.mask

        self.mask = nn.Parameter(self.mask)
        self.mask.requires_grad = False

class FlowSequential(nn.Module):
    def __init__(self,layers):
        super().__init__()
        self.layers = nn.Sequential(*layers)

    def forward(self, x, invert=False):
        log_det_jac = None

        layers = self.layers
        if invert:
            layers = layers[::-1]

        for layer in layers:
            x, log_det = layer.forward(x,invert=invert)
            if log_det_jac is None:
                log_det_jac = log_det
            else:
                log_det_jac += log_det

        return x, log_det_jac

def squeeze(x):
    bs,c,sl,_ = x.shape
    assert c==1

    squeezed = x.reshape(bs,sl//2,2,sl//2,2).permute(0,1,3,2,4).reshape(bs,sl//2,sl//2,4).permute(0,3,1,2)
    return squeezed

def unsqueeze(x):
    bs,c,sl,_ = x.shape
    assert c==4

    unsqueezed = x.permute(0,2,3,1).reshape(bs,sl,sl,2,2).permute(0,1,3,2,4).reshape(bs,1,2*sl,2*sl)
    return unsqueezed

class RealNVP(nn.Module):
    def __init__(self,in_shape,z_dist,max_val=1):
        super().__init__()
        self.in_shape = in_shape
        self.z_dist = z_dist
        self.is_z_simple = isinstance(self.z_dist, torch.distributions.Distribution)
        self.preprocess = Preprocessor(max_val)

        self.layers_1 = FlowSequential([AffineCouplingCheckboard(in_shape),
                                        AffineCouplingCheckboard(in_shape),
                                        AffineCouplingCheckboard(in_shape)])

        scale_2_shape = (in_shape[0]*4,in_shape[1]//2,in_shape[2]//2)
        self.layers_2 = FlowSequential([AffineCouplingChannel(scale_2_shape),
                                        AffineCouplingChannel(scale_2_shape),
                                        AffineCouplingChannel(scale_2_shape)])

        self.layers_3 = FlowSequential([AffineCouplingCheckboard(in_shape),
                                        AffineCouplingCheckboard(in_shape),
                                        AffineCouplingCheckboard(in_shape)])

    def forward(self,x,invert=False):
        if invert:
            x, log_det_1 = self.layers_3.forward(x,invert)
            x = squeeze(x)
            x, log_det_2 = self.layers_2.forward(x,invert)
            x = unsqueeze(x)
            x, log_det_3 = self.layers_1.forward(x,invert)
            x, log_det_pre = self.preprocess.forward(x,invert)
        else:
            x, log_det_pre = self.preprocess.forward(x,invert)
            x, log_det_1 = self.layers_1.forward(x,invert)
            x = squeeze(x)
            x, log_det_2 = self.layers_2.forward(x,invert)
            x = unsqueeze(x)
            x, log_det_3 = self.layers_3.forward(x,invert)

        # Sum up log determinants
        log_det_jac = torch.sum(log_det_pre,dim=(1,2,3))
        log_det_jac += torch.sum(log_det_1,dim=(1,2,3))
        log_det_jac += torch.sum(log_det_2,dim=(1,2,3))
        log_det_jac += torch.sum(log_det_3,dim=(1,2,3))
        return x, log_det_jac

    def log_prob(self, x, invert=False):
        num_dims = self.in_shape[0]*self.in_shape[1]*self.in_shape[2]
        if self.is_z_simple:
            assert invert == False

        x, log_det_jac = self.forward(x, invert=invert)
        if self.is_z_simple:
            log_prob_z = self.z_dist.log_prob(x)
            log_prob_z = torch.sum(log_prob_z,dim=(1,2,3))
            log_prob_x = log_prob_z + log_det_jac
            return log_prob_x/num_dims

        if invert:
            log_prob_x, log_det = self.z_dist.log_prob(x, invert=True)
            log_prob_z = log_prob_x + log_det + log_det_jac
            return log_prob_z/num_dims
        else:
            log_prob_z, log_det = self.z_dist.log_prob(x, invert=False)
            log_prob_x = log_prob_z + log_det + log_det_jac
            return log_prob_x/num_dims

# ===== train/datasets.py =====
import numpy as np
import torch
import torch.nn as nn
from torch.utils.data import Dataset, DataLoader

class ImgsDataset(Dataset):
    def __init__(self, path_to_pkl:str, train:bool=True):
        self.train = train
        data = np.load(path_to_pkl, allow_pickle=True)
        
        if self.train:
            self.imgs = data['train'].transpose(0,3,1,2).astype(float)
            self.labels = data['train_labels']
        else:
            self.imgs = data['test'].transpose(0,3,1,2).astype(float)
            self.labels = data['test_labels']
        
        if "colored" not in path_to_pkl:
            self.imgs /= 255

    def __len__(self):
        return self.imgs.shape[0]

    def __getitem__(self, idx):
        img = torch.from_numpy(self.imgs[idx]).type(torch.FloatTensor)
        return img, self.labels[idx]

def get_dataloaders(dataset_name:str, batch_size:int):
    assert dataset_name in ['shapes','shapes_colored','mnist','mnist_colored']

    dataset_loc = "/content/RealNVP/data/{}.pkl".format(dataset_name)
    train_dataset = ImgsDataset(path_to_pkl=dataset_loc, train=True)
    test_dataset = ImgsDataset(path_to_pkl=dataset_loc, train=False)
    
    train_loader = DataLoader(train_dataset,batch_size=batch_size,shuffle=True)
    test_loader = DataLoader(test_dataset,batch_size=batch_size)

    return train_loader, test_loader

# ===== train/train.py =====
import numpy as np
import torch
import torch.nn as nn
from tqdm import tqdm
import matplotlib.pyplot as plt

def train_epoch(model, optimizer, train_loader):
    device = next(model.parameters()).device

    model.train()
    train_losses = []

    for imgs, labels in tqdm(train_loader,position=0,leave=True):
        imgs, labels = imgs.to(device), labels.to(device)

        log_prob_x = model.log_prob(imgs)

        loss = -1*torch.mean(log_prob_x)

        optimizer.zero_grad()
        loss.backward()
        nn.utils.clip_grad_norm_(model.parameters(), 5)
        optimizer.step()

        train_losses.append(loss.item())

    return train_losses

def test(model, test_loader):
    device = next(model.parameters()).device

    model.eval()
    test_losses = 0
    num_test = 0

    with torch.no_grad():
        for imgs, labels in test_loader:
            imgs, labels = imgs.to(device), labels.to(device)

            log_prob_x = model.log_prob(imgs)

            loss = -1*torch.sum(log_prob_x)

            test_losses += loss.item()
            num_test += imgs.shape[0]

    return test_losses/num_test

def train(model, optimizer, n_epochs, train_loader, test_loader, plot=False):
    train_losses = []
    test_losses = []

    for e in range(1, n_epochs+1):
        test_loss_epoch = test(model,test_loader)
        if e > 1:
            test_losses.append(test_loss_epoch)

        print("Epoch {}, Test Loss: {}".format(e, test_loss_epoch))

        train_loss_epoch = train_epoch(model,optimizer,train_loader)
        if e > 1:
            train_losses.extend(train_loss_epoch)

    test_loss_epoch = test(model,test_loader)
    test_losses.append(test_loss_epoch)

    print("Final Test Loss: {}".format(test_loss_epoch))

    if plot:
        num_tr = len(train_losses)
        num_ts = len(test_losses)
        itrs_per_epoch = num_tr/(num_ts-1)

        plt.title("Training and testing bits/dim throughout training")
        plt.plot(np.arange(0,num_tr),train_losses,label="Train bits/dim")
        plt.plot(np.arange(0,num_ts)*itrs_per_epoch,test_losses,label="Test bits/dim")
        plt.legend()
        plt.show()

    return train_losses, test_losses

def generate_samples(model,num_samples=32,floor=True,num_to_plot=0,samples_per_row=5,figsize=(15,8)):
    device = next(model.parameters()).device

    z = model.z_dist.sample((num_samples,*model.in_shape)).to(device)

    model.eval()
    with torch.no_grad():
        x, _ = model.forward(z, invert=True)

    if floor:
        x = torch.clamp(torch.floor(x),min=0,max=model.preprocess.max_val-1)
    else:
        x -= torch.min(x)
        x /= torch.max(x)

    x = x.cpu().numpy()

    if num_to_plot>0:
        num_samples = num_to_plot
        num_rows = int(np.ceil(num_samples/samples_per_row))
        fig, ax = plt.subplots(num_rows,samples_per_row,figsize=figsize)

        # Draw samples
        for i in range(num_samples):
            ax[i//samples_per_row, i%samples_per_row].imshow(x[i][0], cmap="gray")

    return x

# ===== driver (written here: the repository's train_models.py is not in the index) =====
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
train_loader, test_loader = get_dataloaders("shapes", batch_size=8)
z_dist = torch.distributions.Normal(torch.tensor(0.0, device=device), torch.tensor(1.0, device=device))
model = RealNVP((1, 4, 4), z_dist, max_val=1).to(device)
optimizer = torch.optim.Adam(model.parameters(), lr=5e-4)
train_losses, test_losses = train(model, optimizer, 2, train_loader, test_loader)
samples = generate_samples(model, num_samples=4)
print("checksum", round(sum(train_losses), 5), round(sum(test_losses), 5), float(samples.sum()))
