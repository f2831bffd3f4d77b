import contextlib

import torch


@contextlib.contextmanager
def double_scope():
    old = torch.get_default_dtype()
    torch.set_default_dtype(torch.float64)
    try:
        yield
    finally:
        torch.set_default_dtype(old)


def set_phase(phase):
    torch.set_default_dtype(torch.float64 if phase == "fine" else torch.float32)
