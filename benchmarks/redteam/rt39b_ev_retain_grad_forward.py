# corpus: runnable
# Red team 39, wave 2 (blind): a model whose forward keeps its hidden activation for a gradient-flow
# monitor with `retain_grad()` (so training can log the activation gradient's norm). The validation loop
# only counts correct predictions.
import torch
import torch.nn as nn

torch.manual_seed(33)
torch.set_num_threads(1)
device = "cuda" if torch.cuda.is_available() else "cpu"


class MonitoredMLP(nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.fc1 = nn.Linear(5, 8)
        self.fc2 = nn.Linear(8, 3)
        self.hidden = None

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        h = torch.relu(self.fc1(x))
        h.retain_grad()
        self.hidden = h
        return self.fc2(h)


model = MonitoredMLP().to(device)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
x = torch.randn(40, 5, device=device)
y = torch.randint(0, 3, (40,), device=device)
for epoch in range(2):
    model.train()
    for s in range(0, 32, 8):
        loss = nn.functional.cross_entropy(model(x[s : s + 8]), y[s : s + 8])
        opt.zero_grad()
        loss.backward()
        opt.step()
        print("grad-flow", f"{model.hidden.grad.norm().item():.10f}")
    model.eval()
    correct = 0
    try:
        for s in range(32, 40, 4):
            pred = model(x[s : s + 4]).argmax(1)
            correct += int((pred == y[s : s + 4]).sum())
        print(epoch, "val", correct)
    except RuntimeError as err:
        print(epoch, "val failed", type(err).__name__)
