_callbacks = []
_ns = {}


def on_step(fn):
    """Registers a callback run at every `step()`."""
    _callbacks.append(fn)


def bind(namespace):
    """Keeps the namespace it is handed (a logger reading the script's variables)."""
    _ns.update(namespace=namespace)


def step(x):
    for fn in _callbacks:
        fn(x)
    if "namespace" in _ns:
        _ns["namespace"]["steps"].add_(1)
