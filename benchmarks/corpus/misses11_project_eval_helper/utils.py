"""Helpers shared by the scripts of this project: where the model and the batches go."""
import torch


def get_device():
    return torch.device("cuda" if torch.cuda.is_available() else "cpu")


def prepare_model(model):
    return model.to(get_device())


def move(batch):
    return [t.to(get_device()) for t in batch]
