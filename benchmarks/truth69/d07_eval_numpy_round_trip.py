"""Evaluation of a 1000-class classifier over two held-out splits: each batch's logits go to
NumPy (`.cpu().numpy()`), softmax, `argmax` and confidence are computed there, and the results
come back with `torch.from_numpy` to be compared with the labels."""
import numpy as np
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
            logits = model(xb).cpu().numpy()
        probs = np.exp(logits - logits.max(axis=1, keepdims=True))
        probs /= probs.sum(axis=1, keepdims=True)
        pred = torch.from_numpy(np.argmax(probs, axis=1))
        correct += (pred == yb).sum()
        confidence += torch.from_numpy(probs.max(axis=1)).sum()
    print(split, float(correct) / len(splits[split]), float(confidence) / len(splits[split]))
