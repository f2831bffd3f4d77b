# corpus: runnable
# Evaluation loops that print what the model gives as tensors (the tutorial way): the text
# of a tensor that records a graph shows `grad_fn=<...>`.
import torch
import torch.nn as nn

torch.manual_seed(0)
torch.set_num_threads(1)
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
model = nn.Linear(4, 3).to(device)
criterion = nn.CrossEntropyLoss()
batches = [(torch.randn(5, 4), torch.randint(0, 3, (5,))) for _ in range(3)]

model.eval()
val_loss = 0
for xb, yb in batches:
    xb, yb = xb.to(device), yb.to(device)
    out = model(xb)
    val_loss += criterion(out, yb)
print("val loss", val_loss / len(batches))

model.eval()
for i, (xb, yb) in enumerate(batches):
    probs = model(xb.to(device)).softmax(1)
    if i == 0:
        print(f"first probs {probs[0]}")

model.eval()
correct = 0
seen = 0
for xb, yb in batches:
    pred = model(xb.to(device)).argmax(1)
    correct += (pred == yb.to(device)).sum().item()
    seen += yb.size(0)
print(f"accuracy {correct / seen:.3f}", "labels", yb)
