# corpus: runnable
"""WGAN-GP on a 1-D mixture of Gaussians, split into models, utils and a training module."""
import torch

from models import Critic, Generator
from train import train
from utils import make_noise, to_cuda

torch.manual_seed(0)
data = torch.cat([torch.randn(256, 1) * 0.3 - 2, torch.randn(256, 1) * 0.3 + 2])
G, D = to_cuda(Generator()), to_cuda(Critic())
train(G, D, data)
with torch.no_grad():
    samples = G(make_noise(1000, 4)).cpu()
print(f"fraction right mode {(samples > 0).float().mean().item():.3f} spread {samples.std().item():.3f}")
