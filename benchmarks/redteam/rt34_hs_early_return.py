# corpus: runnable
# Red team 34 (blind): a training function with a step budget. The running loss is summed with
# `.item()`; when the budget runs out in the middle of an epoch the function returns the mean so far
# from inside the loop, and the caller rounds it for the log.
import torch
import torch.nn.functional as F
from torch import nn
from torch.utils.data import DataLoader, TensorDataset

torch.set_num_threads(1)


def train_epoch(model, opt, loader, device, budget):
    running = 0.0
    for step, (xb, yb) in enumerate(loader):
        if step == budget:
            return running / budget
        loss = F.mse_loss(model(xb.to(device)), yb.to(device))
        opt.zero_grad()
        loss.backward()
        opt.step()
        running += loss.item()
    return running / len(loader)


def main():
    torch.manual_seed(0)
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    x = torch.randn(96, 3)
    y = x @ torch.tensor([[1.0], [-2.0], [0.5]])
    loader = DataLoader(TensorDataset(x, y), batch_size=12)
    model = nn.Linear(3, 1).to(device)
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    for epoch, budget in enumerate([8, 5, 8, 3]):
        mean = train_epoch(model, opt, loader, device, budget)
        print(f"epoch {epoch} (budget {budget}): mean loss {round(mean, 5)} type {type(mean).__name__}")


if __name__ == "__main__":
    main()
