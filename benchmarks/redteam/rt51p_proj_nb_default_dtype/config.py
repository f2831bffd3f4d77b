"""Experiment settings. Importing this module selects double precision for every tensor the run makes
from Python numbers (the metrics are kept in float64)."""
import torch

SEED = 5113
EPOCHS = 5
torch.set_default_dtype(torch.float64)
