"""Custom autograd Functions: a gradient reversal layer that also reports the gradient it reversed, and a
straight-through rounding of features."""
import torch


class GradReverse(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, lam, stats):
        ctx.save_for_backward(lam)
        ctx.stats = stats
        return x.view_as(x)

    @staticmethod
    def backward(ctx, grad):
        lam, = ctx.saved_tensors
        ctx.stats[0] += grad.pow(2).sum()
        ctx.stats[1] += 1
        return -lam * grad, None, None


class RoundST(torch.autograd.Function):
    """Round to a grid of `step`; the gradient passes where the input is inside the clip range."""

    @staticmethod
    def forward(ctx, x, step, limit):
        ctx.save_for_backward(x)
        ctx.limit = limit
        return (x.clamp(-limit, limit) / step).round() * step

    @staticmethod
    def backward(ctx, grad):
        x, = ctx.saved_tensors
        return grad * (x.abs() <= ctx.limit).to(grad.dtype), None, None


def grad_reverse(x, lam, stats):
    return GradReverse.apply(x, lam, stats)


def round_st(x, step=0.25, limit=3.0):
    return RoundST.apply(x, step, limit)
