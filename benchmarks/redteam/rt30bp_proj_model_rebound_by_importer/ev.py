"""Validation of the project model; experiments swap `ev.model` for their own before calling `validate`."""
import torch
import torch.nn as nn
import torch.nn.functional as F

device = torch.device("cuda" if torch.cuda.is_available() else "cpu")


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(4, 1)

    def forward(self, x):
        return self.fc(x)


model = Net().to(device)


def validate(batches):
    model.eval()
    total = 0.0
    for x, y in batches:
        out = model(x.to(device))
        total += F.mse_loss(out, y.to(device)).item()
    model.train()
    return total / len(batches)
