# corpus: runnable
"""A forecasting trainer in the style of Informer's Exp class: the forward pass lives in a helper
(`_process_one_batch`), and the training loop keeps every step's prediction on the object for a
later plot, with its autograd graph. Only the stored targets of the validation pass are data."""
import torch
import torch.nn as nn

torch.manual_seed(0)


class Exp:
    def __init__(self):
        self.model = nn.Sequential(nn.Linear(12, 32), nn.ReLU(), nn.Linear(32, 4))
        self.optim = torch.optim.Adam(self.model.parameters(), lr=1e-3)
        self.criterion = nn.MSELoss()
        self.predicted_train = []
        self.true_train = []

    def _process_one_batch(self, batch_x, batch_y):
        outputs = self.model(batch_x)
        return outputs, batch_y

    def train(self, batches, epochs):
        for epoch in range(epochs):
            for batch_x, batch_y in batches:
                self.optim.zero_grad()
                pred, true = self._process_one_batch(batch_x, batch_y)
                loss = self.criterion(pred, true)
                self.predicted_train.append(pred)  # paef: expect-fix graph-retention
                self.true_train.append(true)
                loss.backward()
                self.optim.step()
        return loss.detach()


series = torch.sin(torch.arange(0, 200, dtype=torch.float32) / 7)
windows = torch.stack([series[i:i + 16] for i in range(180)])
batches = [(windows[i:i + 20, :12], windows[i:i + 20, 12:]) for i in range(0, 180, 20)]
exp = Exp()
last = exp.train(batches, 4)
print(f"last loss {last.item():.4f}, kept {len(exp.predicted_train)} steps")
