"""Distillation losses written out by hand: softened teacher probabilities, the student's log-probabilities,
and a hint loss between hidden features through a trainable regressor."""
import torch


def soften(logits, T):
    e = torch.exp(logits / T)
    return e / e.sum(dim=-1, keepdim=True)


def log_soften(logits, T):
    z = logits / T
    return z - torch.log(torch.exp(z).sum(dim=-1, keepdim=True))


def kd_loss(s_logits, t_logits, T):
    return -(soften(t_logits, T) * log_soften(s_logits, T)).sum(-1).mean() * T * T


def hint_loss(s_feat, t_feat, regressor):
    diff = regressor(s_feat) - t_feat
    return (diff * diff).mean()
