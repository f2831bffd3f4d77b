"""Helpers: moving to the GPU, noise, the gradient penalty."""
import torch

USE_CUDA = torch.cuda.is_available()


def to_cuda(x):
    return x.cuda() if USE_CUDA else x


def make_noise(n, nz):
    return to_cuda(torch.randn(n, nz))  # paef: expect cpu-then-move; refuse cpu-then-move; refuse redundant-tensor


def gradient_penalty(critic, real, fake):
    alpha = to_cuda(torch.rand(real.size(0), 1))  # paef: expect cpu-then-move; refuse cpu-then-move; refuse redundant-tensor
    mixed = (alpha * real + (1 - alpha) * fake).requires_grad_(True)
    out = critic(mixed)
    grads = torch.autograd.grad(out, mixed, grad_outputs=to_cuda(torch.ones_like(out)), create_graph=True)[0]
    return ((grads.norm(2, dim=1) - 1) ** 2).mean()
