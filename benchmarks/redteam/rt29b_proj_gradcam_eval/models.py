import torch.nn as nn


class SignalCNN(nn.Module):
    def __init__(self, n_classes=3):
        super().__init__()
        self.features = nn.Sequential(nn.Conv1d(1, 6, 5, padding=2), nn.ReLU(), nn.Conv1d(6, 8, 3, padding=1), nn.ReLU())
        self.head = nn.Linear(8, n_classes)

    def forward(self, x):
        return self.head(self.features(x).mean(-1))
