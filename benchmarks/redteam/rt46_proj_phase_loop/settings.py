"""Precision switch used for the final, high-precision epochs."""
import torch


def use_double(model):
    torch.set_default_dtype(torch.float64)
    return model.double()
