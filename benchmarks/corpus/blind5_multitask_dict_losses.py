# corpus: runnable
"""Multi-task learning on synthetic face attributes: a shared trunk, one head per task
(age regression, gender and smile classification), batches and losses kept in dicts, task
weights for the weighted sum, and per-task metrics in evaluation."""
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, Dataset

torch.manual_seed(0)
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
TASKS = ("age", "gender", "smile")


class Faces(Dataset):
    def __init__(self, n):
        self.x = torch.randn(n, 20)
        self.age = (self.x[:, :3].sum(1) * 5 + 30).unsqueeze(1)
        self.gender = (self.x[:, 3] > 0).long()
        self.smile = (self.x[:, 4] + 0.5 * self.x[:, 5] > 0).long()

    def __len__(self):
        return len(self.x)

    def __getitem__(self, i):
        return {"image": self.x[i], "age": self.age[i], "gender": self.gender[i], "smile": self.smile[i]}


class MultiHead(nn.Module):
    def __init__(self):
        super().__init__()
        self.trunk = nn.Sequential(nn.Linear(20, 64), nn.ReLU(), nn.Linear(64, 64), nn.ReLU())
        self.heads = nn.ModuleDict({"age": nn.Linear(64, 1), "gender": nn.Linear(64, 2), "smile": nn.Linear(64, 2)})

    def forward(self, x):
        h = self.trunk(x)
        return {t: head(h) for t, head in self.heads.items()}


def compute_losses(out, batch):
    return {
        "age": F.smooth_l1_loss(out["age"], batch["age"]),
        "gender": F.cross_entropy(out["gender"], batch["gender"]),
        "smile": F.cross_entropy(out["smile"], batch["smile"]),
    }


train_loader = DataLoader(Faces(640), batch_size=64, shuffle=True)  # paef: ok pageable-transfer
val_loader = DataLoader(Faces(192), batch_size=96)  # paef: ok pageable-transfer
model = MultiHead().to(device)
optimizer = torch.optim.AdamW(model.parameters(), lr=2e-3)

for epoch in range(3):
    model.train()
    logs = {t: 0.0 for t in TASKS}
    for batch in train_loader:
        batch = {k: v.to(device) for k, v in batch.items()}
        losses = compute_losses(model(batch["image"]), batch)
        weights = torch.tensor([0.1, 1.0, 1.0], device=device)  # paef: expect redundant-tensor
        loss = sum(w * losses[t] for w, t in zip(weights, TASKS))  # paef: ok elementwise-loop; ok list-to-tensor
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        for t, v in losses.items():
            logs[t] += v.item()  # paef: expect host-sync
    model.eval()
    correct = {t: torch.zeros((), device=device) for t in ("gender", "smile")}
    mae = torch.zeros((), device=device)
    with torch.no_grad():
        for batch in val_loader:
            batch = {k: v.to(device) for k, v in batch.items()}
            out = model(batch["image"])
            mae += (out["age"] - batch["age"]).abs().sum()
            for t in correct:
                correct[t] += (out[t].argmax(1) == batch[t]).sum()
    summary = " ".join(f"{t} {v / len(train_loader):.3f}" for t, v in logs.items())
    print(f"epoch {epoch} {summary} | mae {mae.item() / 192:.2f} " + " ".join(f"{t} {c.item() / 192:.3f}" for t, c in correct.items()))
