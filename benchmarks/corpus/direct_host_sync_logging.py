# corpus: runnable
"""Image-classifier style loop that reads the loss and accuracy back to the host every step."""
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset

torch.manual_seed(0)
device = "cuda" if torch.cuda.is_available() else "cpu"

ds = TensorDataset(torch.randn(256, 3, 4, 4), torch.randint(0, 5, (256,)))
loader = DataLoader(ds, batch_size=32, shuffle=True, pin_memory=True)
model = nn.Sequential(nn.Flatten(), nn.Linear(48, 64), nn.ReLU(), nn.Linear(64, 5)).to(device)
optimizer = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)

for epoch in range(2):
    running_loss, correct, seen = 0.0, 0, 0
    for inputs, labels in loader:
        inputs, labels = inputs.to(device, non_blocking=True), labels.to(device, non_blocking=True)
        outputs = model(inputs)
        loss = F.cross_entropy(outputs, labels)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        running_loss += loss.item() * inputs.size(0)  # paef: expect host-sync
        _, predicted = outputs.max(1)
        correct += predicted.eq(labels).sum().item()  # paef: expect host-sync
        seen += labels.size(0)
    print(f"epoch {epoch} loss {running_loss / seen:.4f} acc {correct / seen:.4f}")
