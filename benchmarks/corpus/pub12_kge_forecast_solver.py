# corpus: runnable
"""Three small training programs in the style of research code seen in public check 12: a
knowledge-graph scorer whose batches carry a mode string next to the tensors, a forecaster that
moves the encoder window to the device but keeps the target window on the host (its decoder
input is built where the target lives), and a solver base class whose loaders are declared in a
placeholder method that subclasses override, trained with an AMP switch that repeats the loss
bookkeeping in both arms and a periodic print before the running totals."""
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, Dataset, TensorDataset

torch.manual_seed(0)
torch.set_num_threads(1)
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")


class TripleSet(Dataset):
    def __init__(self, n, mode):
        self.triples = torch.randint(0, 20, (n, 3))
        self.negatives = torch.randint(0, 20, (n, 5))
        self.mode = mode

    def __len__(self):
        return len(self.triples)

    def __getitem__(self, i):
        return self.triples[i], self.negatives[i], self.mode

    @staticmethod
    def collate(rows):
        positive = torch.stack([r[0] for r in rows])
        negative = torch.stack([r[1] for r in rows])
        return positive, negative, rows[0][2]


class Scorer(nn.Module):
    def __init__(self):
        super().__init__()
        self.entity = nn.Embedding(20, 8)
        self.relation = nn.Embedding(20, 8)

    def forward(self, positive, negative, mode):
        if mode == "head-batch":
            head = self.entity(negative)
            tail = self.entity(positive[:, 2]).unsqueeze(1)
        else:
            head = self.entity(positive[:, 0]).unsqueeze(1)
            tail = self.entity(negative)
        return -(head + self.relation(positive[:, 1]).unsqueeze(1) - tail).abs().sum(-1)


scorer = Scorer().to(device)
kge_optimizer = torch.optim.Adam(scorer.parameters(), lr=1e-2)
kge_loaders = [DataLoader(TripleSet(24, m), batch_size=8, collate_fn=TripleSet.collate,
                          pin_memory=torch.cuda.is_available()) for m in ("head-batch", "tail-batch")]
for loader in kge_loaders:
    for positive, negative, mode in loader:
        positive = positive.to(device, non_blocking=True)
        negative = negative.to(device, non_blocking=True)
        score = scorer(positive, negative, mode)
        if mode == "head-batch":
            loss = -nn.functional.logsigmoid(-score).mean()
        else:
            loss = -nn.functional.logsigmoid(-score).mean() * 0.5
        kge_optimizer.zero_grad()
        loss.backward()
        kge_optimizer.step()
print("kge", round(float(loss.detach()), 4))


forecaster = nn.Linear(12, 4).to(device)
window = TensorDataset(torch.randn(40, 12), torch.randn(40, 6))
window_loader = DataLoader(window, batch_size=8, shuffle=False, pin_memory=torch.cuda.is_available())
predictions = []
forecaster.eval()
with torch.no_grad():
    for i, (batch_x, batch_y) in enumerate(window_loader):
        batch_x = batch_x.float().to(device, non_blocking=True)
        batch_y = batch_y.float()
        dec_inp = torch.zeros([batch_y.shape[0], 4]).float().to(batch_y.device)
        dec_inp = torch.cat([batch_y[:, :2], dec_inp], dim=1).to(device, non_blocking=True)
        predictions.append((forecaster(batch_x) + dec_inp[:, 2:]).sum())
print("forecast", round(float(torch.stack(predictions).sum()), 4))


class BaseSolver:
    def __init__(self, use_amp):
        self.use_amp = use_amp
        self.model = nn.Sequential(nn.Linear(6, 16), nn.ReLU(), nn.Linear(16, 3)).to(device)
        self.optimizer = torch.optim.SGD(self.model.parameters(), lr=0.05)
        self.init_dataloader()

    def init_dataloader(self):
        self.train_loader = DataLoader(Dataset())  # type: ignore
        raise NotImplementedError

    def train_one_epoch(self):
        self.model.train()
        losses, total_acc, steps = [], 0.0, 0
        for x, y in self.train_loader:
            x, y = x.to(device, non_blocking=True), y.to(device, non_blocking=True)
            self.optimizer.zero_grad()
            if self.use_amp:
                with torch.autocast(device.type, enabled=False):
                    out = self.model(x)
                    loss = nn.functional.cross_entropy(out, y)
                    losses.append(loss.item())  # paef: expect host-sync
            else:
                out = self.model(x)
                loss = nn.functional.cross_entropy(out, y)
                losses.append(loss.item())  # paef: expect host-sync
            loss.backward()
            self.optimizer.step()
            acc = 100.0 * (out.argmax(1) == y).float().sum() / len(y)
            steps += 1
            if steps % 4 == 0:
                print("step", steps, round(acc.item(), 2))
            total_acc += acc.item()  # paef: expect-fix host-sync
        return sum(losses) / len(losses), total_acc / steps


class Solver(BaseSolver):
    def init_dataloader(self):
        data = TensorDataset(torch.randn(32, 6), torch.randint(0, 3, (32,)))
        self.train_loader = DataLoader(data, batch_size=8, shuffle=False, pin_memory=torch.cuda.is_available())


for use_amp in (False, True):
    solver = Solver(use_amp)
    mean_loss, mean_acc = solver.train_one_epoch()
    print("solver", use_amp, round(mean_loss, 4), round(mean_acc, 2))
