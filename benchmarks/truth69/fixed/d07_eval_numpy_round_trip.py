"""Twin of d07: softmax, argmax and confidence stay in torch."""
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset

torch.manual_seed(0)
C = 1000
model = nn.Sequential(nn.Linear(64, 128), nn.ReLU(), nn.Linear(128, C))
model.eval()
splits = {"val": TensorDataset(torch.randn(8192, 64), torch.randint(0, C, (8192,))),
          "test": TensorDataset(torch.randn(8192, 64), torch.randint(0, C, (8192,)))}
for split in ["val", "test"]:
    loader = DataLoader(splits[split], batch_size=256)
    correct, confidence = torch.zeros(()), torch.zeros(())
    for xb, yb in loader:
        with torch.no_grad():
            probs = torch.softmax(model(xb), dim=1)
        conf, pred = probs.max(dim=1)
        correct += (pred == yb).sum()
        confidence += conf.sum()
    print(split, float(correct) / len(splits[split]), float(confidence) / len(splits[split]))
