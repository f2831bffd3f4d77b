# corpus: runnable
# Red team cwa (probe, wave 2): a function trains one epoch and sums the loss with `.item()`;
# a nested helper, defined before the loop and handed to `sorted` as a key inside the loop,
# reads the running sum from the enclosing function (a closure), to rank the last batches.
import torch
import torch.nn.functional as F
from torch import nn

torch.set_num_threads(1)
torch.manual_seed(5)
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")


def train_epoch(model, opt, loader):
    running = 0.0
    recent = []
    rank = lambda item: (item[1] - running / max(1, len(recent))) ** 2  # noqa: E731
    for i, (xb, yb) in enumerate(loader):
        xb, yb = xb.to(device), yb.to(device)
        loss = F.mse_loss(model(xb), yb)
        opt.zero_grad()
        loss.backward()
        opt.step()
        running += loss.item()
        recent.append((i, 0.5 * i))
        recent = sorted(recent, key=rank)[:3]
    return running, [r for r, _ in recent]


x = torch.randn(60, 3)
y = x @ torch.tensor([[1.0], [-2.0], [0.5]])
loader = torch.utils.data.DataLoader(torch.utils.data.TensorDataset(x, y), batch_size=10)
model = nn.Linear(3, 1).to(device)
opt = torch.optim.SGD(model.parameters(), lr=0.05)
total, kept = train_epoch(model, opt, loader)
print(f"epoch loss {total:.5f}", kept)
