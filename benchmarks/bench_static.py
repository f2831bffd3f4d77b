"""Static analysis latency: a 100-line training cell, a 100-line and a 1,000-line cell of
repeated antipattern blocks; cold and warm.

Cold: the first analysis in a fresh process (imports, libcst, jedi's first inference), wall.
Warm: later analyses of a *different* cell of the same size in the same process (so no
per-source cache helps), CPU seconds (`time.process_time`: the box is shared), median and
max of several, torch on 1 thread. Target (issue 2): 100 lines under 0.2 s warm.

    .venv/bin/python -m benchmarks.bench_static
"""

from __future__ import annotations

import statistics
import subprocess
import sys
import time

from benchmarks.tables import Table, command_line, machine, write

BLOCK = '''
for epoch_{i} in range(2):
    for xb_{i}, yb_{i} in loader:
        xb_{i} = xb_{i}.to(device)
        mask_{i} = torch.tensor(weights)
        vals_{i} = pred.cpu().tolist()
        back_{i} = torch.tensor(vals_{i})
        losses_{i}.append(loss.item())
        h_{i} = 0.5 * xb_{i} * (1 + torch.tanh(0.79788456 * (xb_{i} + 0.044715 * xb_{i} ** 3)))
        loss_{i} = ((model(xb_{i}) - yb_{i}) ** 2).mean()
        opt.zero_grad()
        loss_{i}.backward()
        opt.step()
        total_{i} += loss_{i}
'''
HEADER = '''import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset
device = "cpu"
model = nn.Linear(4, 4)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
loader = DataLoader(TensorDataset(torch.randn(8, 4), torch.randn(8, 4)), batch_size=4)
weights = [1.0, 2.0, 3.0, 4.0]
pred = torch.zeros(4)
'''


# A notebook cell as people write them: a Dataset, a module, helpers, a training loop with
# an evaluation pass, and a summary (it runs: `python -c` it with salt 0).
TRAINING_CELL = '''# run {salt}: a small sequence classifier, trained and evaluated in one cell
# the model is small so the cell runs in a second on a CPU
import math
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, Dataset

device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
VOCAB, SEQ, HIDDEN, CLASSES = 50, 12, 32, 4


class ClickDataset{salt}(Dataset):
    def __init__(self, sessions, labels):
        self.sessions = sessions
        self.labels = labels

    def __len__(self):
        return len(self.sessions)

    def __getitem__(self, idx):
        seq = self.sessions[idx]
        return torch.tensor(seq), torch.tensor(self.labels[idx])


class Encoder(nn.Module):
    def __init__(self, vocab, hidden, classes):
        super().__init__()
        self.embed = nn.Embedding(vocab, hidden)
        self.proj = nn.Linear(hidden, hidden)
        self.head = nn.Linear(hidden, classes)

    def forward(self, x):
        positions = torch.arange(x.shape[1])
        h = self.embed(x) + 0.01 * positions.unsqueeze(-1).float()
        h = 0.5 * h * (1 + torch.tanh(math.sqrt(2 / math.pi) * (h + 0.044715 * h ** 3)))
        return self.head(self.proj(h).mean(dim=1))


def make_data(n, rng):
    sessions = [list(rng.integers(0, VOCAB, size=SEQ)) for _ in range(n)]
    labels = [int(s[0]) % CLASSES for s in sessions]
    return sessions, labels


def accuracy(logits, target):
    pred = logits.argmax(dim=1).cpu().numpy()
    return float((pred == target.cpu().numpy()).mean())


rng = np.random.default_rng(0)
train_sessions, train_labels = make_data(64, rng)
val_sessions, val_labels = make_data(32, rng)
train_loader = DataLoader(ClickDataset{salt}(train_sessions, train_labels), batch_size=16, shuffle=True)
val_loader = DataLoader(ClickDataset{salt}(val_sessions, val_labels), batch_size=16)
model = Encoder(VOCAB, HIDDEN, CLASSES).to(device)
optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
criterion = nn.CrossEntropyLoss()
history = {"loss": [], "acc": []}

for epoch in range(2):
    model.train()
    running = 0.0
    for step, (x, y) in enumerate(train_loader):
        x, y = x.to(device), y.to(device)
        weights = torch.tensor([1.0, 1.0, 2.0, 2.0]).to(device)
        logits = model(x)
        loss = F.cross_entropy(logits, y, weight=weights)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        running += loss.item()
        history["acc"].append(accuracy(logits, y))
        if step % 2 == 0:
            print(f"epoch {epoch} step {step} loss {loss.item():.3f}")
    history["loss"].append(running / len(train_loader))

    model.eval()
    correct, seen = 0, 0
    for x, y in val_loader:
        x = x.to(device)
        y = y.to(device)
        out = model(x)
        probs = F.softmax(out, dim=1)
        for i in range(len(y)):
            if probs[i].argmax().item() == y[i].item():
                correct += 1
        seen += len(y)
    print(f"epoch {epoch}: val acc {correct / seen:.3f}")

scores = []
with torch.no_grad():
    for x, _ in val_loader:
        scores.extend(model(x.to(device)).softmax(dim=1).max(dim=1).values.tolist())
summary = np.mean(scores)
print("mean confidence", summary)
best = max(history["acc"])
final = history["loss"][-1]
print(f"best batch acc {best:.2f}, final loss {final:.3f}")
'''


def make_cell(lines: int, salt: int) -> str:
    out, i = HEADER, 0
    while out.count("\n") < lines:
        out += BLOCK.format(i=f"{salt}_{i}")
        i += 1
    return "\n".join(out.split("\n")[:lines]) + "\n"


def training_cell(salt: int) -> str:
    return TRAINING_CELL.replace("{salt}", str(salt))


CASES = {  # name -> (lines, cell of a salt)
    "training cell": (100, training_cell),
    "repeated blocks": (100, lambda salt: make_cell(100, salt)),
    "repeated blocks, 1,000 lines": (1000, lambda salt: make_cell(1000, salt)),
}


COLD = """
import sys, time
sys.path.insert(0, '.')
from benchmarks.bench_static import CASES
cell = CASES[{case!r}][1](0)
t0 = time.perf_counter()
from paef_jupyter.api import analyze_source
report = analyze_source(cell)
print(time.perf_counter() - t0, len(report.findings))
"""


def cold(case: str) -> tuple[float, int]:
    proc = subprocess.run([sys.executable, "-c", COLD.format(case=case)], capture_output=True, text=True, check=True)
    seconds, findings = proc.stdout.split()
    return float(seconds), int(findings)


def warm(case: str, repeats: int) -> list[float]:
    from paef_jupyter.api import analyze_source

    make = CASES[case][1]
    analyze_source(make(999))  # imports and jedi paid here
    times = []
    for salt in range(1, repeats + 1):
        cell = make(salt)
        t0 = time.process_time()
        analyze_source(cell)
        times.append(time.process_time() - t0)
    return times


def main() -> None:
    import torch

    from paef_jupyter.static import warm as warm_jedi

    torch.set_num_threads(1)
    warm_jedi(background=False)
    rows, data = [], {}
    for case, repeats in (("training cell", 25), ("repeated blocks", 25), ("repeated blocks, 1,000 lines", 5)):
        cold_s = statistics.median(cold(case)[0] for _ in range(3))
        samples = warm(case, repeats)
        _, findings = cold(case)
        lines = CASES[case][0]
        rows.append((case, lines, findings, round(cold_s, 3), round(statistics.median(samples), 4), round(max(samples), 4)))
        data[case] = {"lines": lines, "cold_s": cold_s, "warm_cpu_s": samples}
    write(Table(
        name="static",
        title="Static analysis latency (all rules)",
        columns=("cell", "lines", "findings", "cold s (fresh process, wall)", "warm CPU s (median)", "warm CPU s (max)"),
        rows=tuple(rows),
        notes=("Target: a 100-line cell under 0.2 s warm.",
               "Cold includes importing paef_jupyter, libcst and jedi's first inference.",
               "Warm is CPU time of one analysis (the box is shared: wall time measures the neighbours)."),
        machine=machine(),
        command=command_line(),
        data=data,
    ))


if __name__ == "__main__":
    main()
