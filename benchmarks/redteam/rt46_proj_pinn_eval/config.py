"""Run-wide numerics. PINN codes usually train in double precision, so importing this module switches the
default floating dtype for every factory that runs afterwards, in any module."""
import torch

torch.set_default_dtype(torch.float64)
torch.set_printoptions(precision=12)

N_COLLOCATION = 48
WIDTH = 16
LR = 0.01
