# corpus: runnable
"""Training on an endless stream: an IterableDataset that generates log lines from one
seeded RNG and tokenises them (it is not worker-aware: every worker would replay the same
stream), a fixed number of steps instead of epochs, the running loss summed per step and
printed every 50 steps, validation on a fixed list of batches built once."""
import random

import torch
import torch.nn as nn
from torch.utils.data import DataLoader, IterableDataset

torch.manual_seed(0)
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
LEVELS = ["INFO", "WARN", "ERROR"]
WORDS = ["disk", "net", "cpu", "timeout", "retry", "ok", "fail", "user", "db", "cache"]
VOCAB = {w: i + 1 for i, w in enumerate(WORDS)}
MAX_LEN = 8


class LogStream(IterableDataset):
    def __init__(self, seed):
        self.seed = seed

    def __iter__(self):
        rng = random.Random(self.seed)
        while True:
            level = rng.randrange(3)
            words = rng.choices(WORDS, k=rng.randint(3, MAX_LEN))
            if level == 2:
                words[rng.randrange(len(words))] = "fail"
            elif level == 1:
                words[rng.randrange(len(words))] = "retry"
            ids = [VOCAB[w] for w in words] + [0] * (MAX_LEN - len(words))
            yield torch.tensor(ids), level


class BagClassifier(nn.Module):
    def __init__(self):
        super().__init__()
        self.emb = nn.EmbeddingBag(len(VOCAB) + 1, 16, mode="mean", padding_idx=0)
        self.fc = nn.Linear(16, len(LEVELS))

    def forward(self, x):
        return self.fc(self.emb(x))


train_loader = DataLoader(LogStream(seed=1), batch_size=32)  # paef: ok pageable-transfer; refuse sync-dataloader
val_iter = iter(DataLoader(LogStream(seed=2), batch_size=64))  # paef: ok pageable-transfer
val_batches = [next(val_iter) for _ in range(4)]
model = BagClassifier().to(device)
optimizer = torch.optim.Adam(model.parameters(), lr=1e-2)
criterion = nn.CrossEntropyLoss()
max_steps, running = 200, 0.0
for step, (x, y) in enumerate(train_loader):
    if step >= max_steps:
        break
    x, y = x.to(device), y.to(device)
    loss = criterion(model(x), y)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    running += loss.item()  # paef: expect host-sync
    if (step + 1) % 50 == 0:
        model.eval()
        with torch.no_grad():
            acc = torch.stack([(model(vx.to(device)).argmax(1) == vy.to(device)).float().mean() for vx, vy in val_batches]).mean()
        print(f"step {step + 1} loss {running / 50:.4f} val acc {acc.item():.3f}")
        running = 0.0
        model.train()
