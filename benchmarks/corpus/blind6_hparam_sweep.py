# corpus: runnable
"""A hand-rolled hyper-parameter sweep: a grid over learning rate, weight decay and width, each
configuration trained from scratch with early stopping on a validation split, the history of
every run kept in a list of dicts, and the best configuration retrained on train+val and
evaluated on the test split. The NumPy data is converted to tensors inside run_config()."""
import copy
import itertools
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

np.random.seed(0)
torch.manual_seed(0)
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")

X_np = np.random.randn(600, 10).astype(np.float32)
y_np = (np.sin(X_np[:, 0] * 2) + X_np[:, 1] ** 2 - X_np[:, 2] + 0.1 * np.random.randn(600)).astype(np.float32)
splits = {"train": slice(0, 400), "val": slice(400, 500), "test": slice(500, 600)}


def make_model(width):
    return nn.Sequential(nn.Linear(10, width), nn.Tanh(), nn.Linear(width, width), nn.Tanh(), nn.Linear(width, 1))


def run_config(lr, wd, width, train_split, val_split, max_epochs=30, patience=4):
    torch.manual_seed(1)
    X_tr = torch.tensor(X_np[train_split], device=device)  # paef: ok redundant-tensor
    y_tr = torch.tensor(y_np[train_split], device=device).unsqueeze(1)  # paef: ok redundant-tensor
    X_va = torch.tensor(X_np[val_split], device=device)  # paef: ok redundant-tensor
    y_va = torch.tensor(y_np[val_split], device=device).unsqueeze(1)  # paef: ok redundant-tensor
    model = make_model(width).to(device)
    optimizer = torch.optim.AdamW(model.parameters(), lr=lr, weight_decay=wd)
    history, best, best_state, wait = [], float("inf"), None, 0
    for epoch in range(max_epochs):
        model.train()
        perm = torch.randperm(len(X_tr), device=device)
        for i in range(0, len(perm), 32):
            idx = perm[i : i + 32]
            loss = F.mse_loss(model(X_tr[idx]), y_tr[idx])
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            history.append(loss.item())  # paef: expect host-sync
        model.eval()
        with torch.no_grad():
            val = F.mse_loss(model(X_va), y_va).item()
        if val < best - 1e-4:
            best, best_state, wait = val, copy.deepcopy(model.state_dict()), 0
        else:
            wait += 1
            if wait >= patience:
                break
    model.load_state_dict(best_state)
    return model, best, history


grid = {"lr": [1e-2, 3e-3], "wd": [0.0, 1e-2], "width": [16, 32]}
results = []
for lr, wd, width in itertools.product(*grid.values()):
    _, best, history = run_config(lr, wd, width, splits["train"], splits["val"])
    results.append({"lr": lr, "wd": wd, "width": width, "val": best, "steps": len(history)})
    print("lr=%g wd=%g width=%d -> val %.4f (%d steps)" % (lr, wd, width, best, len(history)))

best_cfg = min(results, key=lambda r: r["val"])
model, _, _ = run_config(best_cfg["lr"], best_cfg["wd"], best_cfg["width"], slice(0, 500), splits["test"])
with torch.no_grad():
    test_mse = F.mse_loss(model(torch.tensor(X_np[splits["test"]], device=device)), torch.tensor(y_np[splits["test"]], device=device).unsqueeze(1))
print("best %s test mse %.4f" % ({k: best_cfg[k] for k in grid}, test_mse.item()))
