# corpus: runnable
"""Fine-tuning epochs that may be zero: hoisting the loop's tensor would run code the loop never runs."""
import argparse

import torch
import torch.nn as nn

parser = argparse.ArgumentParser()
parser.add_argument("--finetune-epochs", type=int, default=0)
args = parser.parse_args()
torch.manual_seed(0)
device = "cuda" if torch.cuda.is_available() else "cpu"

class_counts = None  # only known once a labelled split is given
model = nn.Linear(6, 3).to(device)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
X, Y = torch.randn(90, 6, device=device), torch.randint(0, 3, (90,), device=device)
for epoch in range(args.finetune_epochs):
    weights = 1.0 / torch.tensor(class_counts, dtype=torch.float, device=device)  # paef: refuse redundant-tensor
    loss = nn.functional.cross_entropy(model(X), Y, weight=weights)
    opt.zero_grad()
    loss.backward()
    opt.step()
with torch.no_grad():
    print(f"loss {nn.functional.cross_entropy(model(X), Y).item():.4f}")
