# corpus: runnable
# Red team 38, wave 2 (blind): a trainer whose step loop is a generator (it yields after every optimizer
# step so the caller can interleave logging and early stopping), with the running loss kept in the
# enclosing function through `nonlocal`. The caller reads the running sum between steps.
import torch
import torch.nn as nn

torch.manual_seed(38)
torch.set_num_threads(1)
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")

X = torch.randn(48, 5)
Y = (X @ torch.linspace(-1.0, 1.0, 5)).unsqueeze(1) + 0.1 * torch.randn(48, 1)


def fit(epochs: int) -> float:
    model = nn.Sequential(nn.Linear(5, 16), nn.ReLU(), nn.Linear(16, 1)).to(device)
    opt = torch.optim.SGD(model.parameters(), lr=0.03)
    running = 0.0
    seen = 0

    def steps():
        nonlocal running, seen
        for epoch in range(epochs):
            for b in range(0, 48, 8):
                xb, yb = X[b : b + 8].to(device), Y[b : b + 8].to(device)
                loss = nn.functional.mse_loss(model(xb), yb)
                opt.zero_grad()
                loss.backward()
                opt.step()
                running += loss.item()
                seen += 1
                yield epoch

    for i, epoch in enumerate(steps()):
        if i % 5 == 0:
            print("step", i, "epoch", epoch, "running", repr(running), type(running).__name__)
    return running / seen


mean_loss = fit(3)
print("mean loss", f"{mean_loss:.15f}", type(mean_loss).__name__)
