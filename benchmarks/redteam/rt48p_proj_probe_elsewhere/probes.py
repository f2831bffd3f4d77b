"""Activation probes for later analysis: a forward hook that keeps what a layer outputs while the
model is in eval mode (the tensors as the layer returned them)."""


class ActivationStore:
    def __init__(self):
        self.kept = []

    def __call__(self, module, inputs, output):
        if not module.training:
            self.kept.append(output)


def attach_probe(layer, store):
    return layer.register_forward_hook(store)
