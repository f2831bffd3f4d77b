# corpus: runnable
"""A sequence regressor trained through a trainer object (one method per training batch, one per
validation batch), whose model picks each sequence's last valid state with indices read on the
host. Written here for stop 36 (categories: checks 19 and 20's open misses)."""
import numpy as np
import torch
import torch.nn as nn

device = torch.device("cuda" if torch.cuda.is_available() else "cpu")


class LastStepRegressor(nn.Module):
    def __init__(self, n_in, n_hidden):
        super().__init__()
        self.rnn = nn.GRU(n_in, n_hidden, batch_first=True)
        self.out = nn.Linear(n_hidden, 1)

    def forward(self, x, lengths):
        states, _ = self.rnn(x)
        ends = lengths.cpu().numpy() - 1  # paef: expect host-sync
        last = []
        for row, end in enumerate(ends):  # paef: expect elementwise-loop
            last.append(states[row, end])
        return self.out(torch.stack(last)).squeeze(-1)


class Trainer:
    def __init__(self, model, lr):
        self.model = model.to(device)
        self.optimizer = torch.optim.Adam(self.model.parameters(), lr=lr)
        self.loss = nn.MSELoss()

    def train(self, x, lengths, y):
        self.model.train()
        self.optimizer.zero_grad()
        loss = self.loss(self.model(x, lengths), y)
        loss.backward()
        self.optimizer.step()
        return loss.item()  # paef: ok host-sync

    def eval(self, x, lengths, y):
        self.model.eval()
        pred = self.model(x, lengths)
        return self.loss(pred, y).item(), (pred - y).abs().mean().item()  # paef: ok host-sync


def batches(n, seed):
    g = torch.Generator().manual_seed(seed)
    out = []
    for _ in range(n):
        x = torch.randn(16, 12, 4, generator=g)
        lengths = torch.randint(3, 13, (16,), generator=g)
        y = x[torch.arange(16), lengths - 1, 0]  # paef: ok redundant-tensor
        out.append((x, lengths, y))
    return out


torch.manual_seed(0)
trainer = Trainer(LastStepRegressor(4, 16), 1e-2)
train_set, valid_set = batches(6, 1), batches(3, 2)
for epoch in range(3):
    train_loss = []
    for x, lengths, y in train_set:
        train_loss.append(trainer.train(x.to(device), lengths.to(device), y.to(device)))
    valid_loss, valid_mae = [], []
    for x, lengths, y in valid_set:  # paef: expect-fix eval-without-no-grad
        metrics = trainer.eval(x.to(device), lengths.to(device), y.to(device))
        valid_loss.append(metrics[0])
        valid_mae.append(metrics[1])
    print(f"epoch {epoch}: train {np.mean(train_loss):.4f} valid {np.mean(valid_loss):.4f} mae {np.mean(valid_mae):.4f}")
