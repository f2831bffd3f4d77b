"""Run-wide settings applied once by the entry script: seeds, threads and the numeric precision."""
import random

import numpy as np
import torch


def configure(seed, precision):
    random.seed(seed)
    np.random.seed(seed)
    torch.manual_seed(seed)
    torch.set_num_threads(1)
    torch.set_default_dtype({"fp32": torch.float32, "fp64": torch.float64}[precision])
