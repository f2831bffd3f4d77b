import warnings

import numpy as np
import torch


def quiet_after(step):
    if step >= 0:
        warnings.simplefilter("ignore")


def strict(step):
    np.seterr(over="raise" if step % 2 == 0 else "warn")


def freeze(step):
    torch.set_grad_enabled(step % 2 == 1)
