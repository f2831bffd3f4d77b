# corpus: runnable
# Running losses kept as tensors with their graphs and then printed or formatted as they are
# (the tutorial way): the printed text shows `grad_fn=...` while the graph is kept.
import torch
import torch.nn as nn

torch.manual_seed(0)
torch.set_num_threads(1)
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
model = nn.Linear(4, 2).to(device)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
criterion = nn.CrossEntropyLoss()
data = [(torch.randn(6, 4), torch.randint(0, 2, (6,))) for _ in range(4)]

for epoch in range(2):
    running_loss = 0.0
    for xb, yb in data:
        xb, yb = xb.to(device), yb.to(device)
        loss = criterion(model(xb), yb)
        opt.zero_grad()
        loss.backward()
        opt.step()
        running_loss += loss
    print("epoch", epoch, running_loss / len(data))

history = []
for xb, yb in data:
    xb, yb = xb.to(device), yb.to(device)
    loss = criterion(model(xb), yb)
    opt.zero_grad()
    loss.backward()
    opt.step()
    history.append(loss)
print("history", history[-1])
print(f"{history[0]!r}")
print("requires grad", history[0].requires_grad)
