import torch.nn as nn

ACTIVATIONS = []


def install(model):
    """Keep every linear layer's output, for an activation penalty computed by the caller."""
    for m in model.modules():
        if isinstance(m, nn.Linear):
            m.register_forward_hook(lambda mod, inp, out: ACTIVATIONS.append(out))
