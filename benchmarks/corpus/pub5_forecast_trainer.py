# corpus: runnable
"""A forecasting experiment class in the style of public time-series and speech trainers: the
training loop back-propagates what a `_process_one_batch` method returns (so `test` and
`predict`, which call it, are evaluation loops), a gradient-accumulation branch computes a
gradient norm one `.item()` per parameter and logs a dict of values read with `hasattr(v,
"item")`, a progress line `%`-formats a device tensor, weight histograms are read ten times an
epoch (a computed period), and a `%`-formatted string is appended to a log (no graph kept)."""
import numpy as np
import torch
import torch.nn as nn
from torch.cuda.amp import GradScaler, autocast

torch.manual_seed(0)
np.random.seed(0)
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
SEQ, PRED, N_ITEMS, BATCH = 24, 6, 256, 16


def make_loader(n):
    t = np.arange(n + SEQ + PRED, dtype=np.float32)
    series = np.sin(t / 5.0) + 0.1 * np.random.randn(len(t)).astype(np.float32)
    xs = np.stack([series[i:i + SEQ] for i in range(n)])
    ys = np.stack([series[i + SEQ:i + SEQ + PRED] for i in range(n)])
    data = torch.utils.data.TensorDataset(torch.from_numpy(xs), torch.from_numpy(ys))
    return torch.utils.data.DataLoader(data, batch_size=BATCH, shuffle=False, pin_memory=True)


class Experiment:
    def __init__(self, accum=2):
        self.model = nn.Sequential(nn.Linear(SEQ, 64), nn.ReLU(), nn.Linear(64, PRED)).to(device)
        self.optimizer = torch.optim.Adam(self.model.parameters(), lr=1e-3)
        self.scaler = GradScaler(enabled=device.type == "cuda")
        self.accum = accum
        self.log = []
        self.histograms = {}

    def _process_one_batch(self, batch_x, batch_y):
        outputs = self.model(batch_x.to(device, non_blocking=True))
        return outputs, batch_y.to(device, non_blocking=True)

    def get_grad_norm(self, params, scale=1.0):
        total = 0.0
        for p in params:
            if p.grad is not None:
                total += (p.grad.detach() / scale).norm(2).item() ** 2  # paef: expect host-sync
        return total ** 0.5

    def train(self, loader, epochs=2):
        criterion = nn.MSELoss()
        step = 0
        for epoch in range(epochs):
            self.model.train()
            correct = torch.zeros((), device=device)
            seen = 0
            for i, (batch_x, batch_y) in enumerate(loader):
                with autocast(enabled=device.type == "cuda"):
                    pred, true = self._process_one_batch(batch_x, batch_y)
                    loss = criterion(pred, true) / self.accum
                self.scaler.scale(loss).backward()
                correct += ((pred - true).abs() < 0.2).sum()
                seen += true.numel()
                line = "within 0.2: %.3f" % (correct / seen)  # paef: expect host-sync
                if (i + 1) % self.accum == 0:
                    norm = self.get_grad_norm(self.model.parameters(), self.scaler.get_scale())
                    self.scaler.step(self.optimizer)
                    self.scaler.update()
                    self.optimizer.zero_grad()
                    logs = {"loss": loss * self.accum, "norm": torch.tensor(norm)}
                    logs = {k: v.item() if hasattr(v, "item") else v for k, v in logs.items()}  # paef: expect host-sync
                    step += 1
                    if step % max(1, N_ITEMS // (4 * BATCH * self.accum)) == 0:
                        for tag, value in self.model.named_parameters():
                            self.histograms[tag] = value.detach().cpu().numpy()
                        self.log.append("step %d loss %.4f" % (step, logs["loss"]))
            self.log.append(line)
        return self.log

    def test(self, loader):
        self.model.eval()
        errors = []
        for batch_x, batch_y in loader:  # paef: expect eval-without-no-grad
            pred, true = self._process_one_batch(batch_x, batch_y)
            errors.append((pred - true).abs().mean().detach())
        return torch.stack(errors).mean().item()

    def predict(self, loader):
        self.model.eval()
        preds = []
        for batch_x, batch_y in loader:  # paef: expect eval-without-no-grad
            pred, _ = self._process_one_batch(batch_x, batch_y)
            preds.append(pred.detach())
        return torch.cat(preds)


exp = Experiment()
loader = make_loader(N_ITEMS)
log = exp.train(loader)
print(log[-3:])
print("test MAE %.4f" % exp.test(loader))
print("predictions", tuple(exp.predict(loader).shape), "histograms", len(exp.histograms))
