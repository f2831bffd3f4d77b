"""Custom autograd functions: a margin that is added IN PLACE to the buffer it is handed (mark_dirty),
and a straight-through rounding that saves its input for the backward pass and counts its calls."""
import torch

CALLS = {"margin": 0, "round": 0}


class AddMarginInplace(torch.autograd.Function):
    @staticmethod
    def forward(ctx, buf, logits, labels, m):
        CALLS["margin"] += 1
        ctx.mark_dirty(buf)
        buf.scatter_add_(0, labels, torch.full_like(labels, 1, dtype=buf.dtype) * m)
        return buf, logits - m * torch.nn.functional.one_hot(labels, logits.shape[1]).to(logits.dtype)

    @staticmethod
    def backward(ctx, gbuf, glogits):
        return None, glogits, None, None


class STERound(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, scale):
        CALLS["round"] += 1
        ctx.save_for_backward(x)
        ctx.scale = scale
        return torch.round(x * scale) / scale

    @staticmethod
    def backward(ctx, g):
        (x,) = ctx.saved_tensors
        return g * (x.abs() < 4).to(g.dtype), None
