# corpus: runnable
# Red team 39 (blind): activation regularisation (AR, as in AWD-LSTM) collected by a forward hook. The hook
# appends each hidden layer's output to a module-level list; the training step adds the mean square of the
# collected activations to the loss and back-propagates through them, then clears the list.
import torch
import torch.nn as nn

torch.manual_seed(15)
torch.set_num_threads(1)
device = "cuda" if torch.cuda.is_available() else "cpu"

captured = []


def keep_activation(module: nn.Module, inputs: tuple, output: torch.Tensor) -> None:
    captured.append(output)


model = nn.Sequential(nn.Linear(5, 7), nn.ReLU(), nn.Linear(7, 7), nn.ReLU(), nn.Linear(7, 2)).to(device)
for layer in (model[1], model[3]):
    layer.register_forward_hook(keep_activation)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
x = torch.randn(40, 5, device=device)
y = torch.randint(0, 2, (40,), device=device)
beta = 0.5
ar_total = 0.0
for epoch in range(3):
    task_sum = 0
    for s in range(0, 40, 8):
        captured.clear()
        logits = model(x[s : s + 8])
        task = nn.functional.cross_entropy(logits, y[s : s + 8])
        ar = sum(a.pow(2).mean() for a in captured)
        loss = task + beta * ar
        opt.zero_grad()
        loss.backward()
        opt.step()
        task_sum += task
        ar_total += ar.item()
    print(epoch, f"{task_sum.item():.12f}", f"{ar_total:.12f}")
print("w", f"{model[0].weight.sum().item():.12f}")
