"""Helpers shared by the trainer: moving batches, seeding."""
import random

import torch


def set_seed(seed):
    random.seed(seed)
    torch.manual_seed(seed)


def move_to_device(batch, device):
    return {k: v.to(device) for k, v in batch.items()}  # paef: ok pageable-transfer
