"""Metrics for the trainer: top-1 accuracy of a batch."""


def batch_accuracy(logits, targets):
    return (logits.argmax(dim=1) == targets).float().mean().item()


def grad_norms(model):
    return {name: p.grad.norm().item() for name, p in model.named_parameters() if p.grad is not None}
