"""Attach a monitor to a model: counts hidden activations that carry an autograd graph."""

stats = {"with_graph": 0, "calls": 0}


def _watch(module, inputs, output):
    stats["calls"] += 1
    if output.requires_grad:
        stats["with_graph"] += 1


def attach(model):
    for layer in model:
        layer.register_forward_hook(_watch)
    return model
