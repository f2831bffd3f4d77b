# corpus: runnable
# Red team 48, PROBE after first contact (not blind): a stateful recurrent model keeps its hidden state
# on the module between calls (like a Keras `stateful=True` RNN or a recurrent policy), and the training
# loop cuts the history only AFTER each step (`model.detach_state()` after `opt.step()`). An evaluation
# pass without no_grad leaves the state carrying that pass's graph, so the first training step after it
# also back-propagates into the evaluation forwards: wrapping the evaluation in no_grad changes the
# gradients, hence every later number.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(2)
torch.set_num_threads(1)
device = 'cuda' if torch.cuda.is_available() else 'cpu'


class StatefulGRU(nn.Module):
    def __init__(self, d_in, d_h):
        super().__init__()
        self.cell = nn.GRUCell(d_in, d_h)
        self.head = nn.Linear(d_h, 1)
        self.state = None

    def forward(self, x):
        h = self.state if self.state is not None else x.new_zeros(x.shape[0], self.cell.hidden_size)
        for t in range(x.shape[1]):
            h = self.cell(x[:, t], h)
        self.state = h
        return self.head(h)

    def detach_state(self):
        self.state = self.state.detach()


def evaluate(model, batches):
    total = 0.0
    for xb, yb in batches:
        total += F.mse_loss(model(xb), yb).item()
    return total / len(batches)


model = StatefulGRU(3, 8).to(device)
opt = torch.optim.SGD(model.parameters(), lr=0.05)
train = [(torch.randn(4, 5, 3).to(device), torch.randn(4, 1).to(device)) for _ in range(5)]
val = [(torch.randn(4, 5, 3).to(device), torch.randn(4, 1).to(device)) for _ in range(2)]
for epoch in range(3):
    for xb, yb in train:
        loss = F.mse_loss(model(xb), yb)
        opt.zero_grad()
        loss.backward()
        opt.step()
        model.detach_state()
    print(f"epoch {epoch} train {loss.item():.10f} val {evaluate(model, val):.10f}")
print("weight sum", f"{sum(p.sum().item() for p in model.parameters()):.10f}")
