"""An attribute-style config: every field is looked up in a dict by __getattr__."""
import torch


class Config:
    def __init__(self, **fields):
        self.__dict__["_fields"] = dict(fields)

    def __getattr__(self, key):
        try:
            return self.__dict__["_fields"][key]
        except KeyError:
            raise AttributeError(key)

    def __setattr__(self, key, value):
        self.__dict__["_fields"][key] = value


cfg = Config(device='cuda' if torch.cuda.is_available() else 'cpu', dtype=torch.float64, batch=4, epochs=3)
