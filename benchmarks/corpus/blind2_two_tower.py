# corpus: runnable
"""Two-tower retrieval with in-batch negatives: tensors preloaded, loader options from a config dict, metrics once per epoch."""
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, Dataset

torch.manual_seed(0)
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
cfg = {"dim": 16, "temperature": 0.1, "epochs": 3, "loader": {"batch_size": 32, "shuffle": True, "drop_last": True, "num_workers": 0, "pin_memory": device.type == "cuda"}}

n_users, n_items = 64, 96
user_feat = torch.randn(n_users, 10)
item_feat = torch.randn(n_items, 12)
affinity = user_feat[:, :6] @ item_feat[:, :6].T
clicks = affinity.argmax(1).repeat(4)
click_users = torch.arange(n_users).repeat(4)


class Clicks(Dataset):
    def __init__(self, users, items):
        self.users, self.items = users, items

    def __len__(self):
        return len(self.users)

    def __getitem__(self, i):
        return user_feat[self.users[i]], item_feat[self.items[i]], self.items[i]


class Tower(nn.Module):
    def __init__(self, fin, dim):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(fin, 32), nn.ReLU(), nn.Linear(32, dim))

    def forward(self, x):
        return F.normalize(self.net(x), dim=-1)


user_tower, item_tower = Tower(10, cfg["dim"]).to(device), Tower(12, cfg["dim"]).to(device)
params = list(user_tower.parameters()) + list(item_tower.parameters())
opt = torch.optim.Adam(params, lr=5e-3)
loader = DataLoader(Clicks(click_users, clicks), **cfg["loader"])  # paef: refuse pageable-transfer; refuse sync-dataloader

for epoch in range(cfg["epochs"]):
    total = torch.zeros((), device=device)
    for u, it, _ in loader:
        u, it = u.to(device, non_blocking=True), it.to(device, non_blocking=True)
        logits = user_tower(u) @ item_tower(it).T / cfg["temperature"]
        labels = torch.arange(logits.size(0), device=device)  # paef: ok redundant-tensor
        loss = F.cross_entropy(logits, labels)
        opt.zero_grad(set_to_none=True)
        loss.backward()
        opt.step()
        total += loss.detach()
    with torch.no_grad():
        all_items = item_tower(item_feat.to(device))
        top = (user_tower(user_feat.to(device)) @ all_items.T).topk(5, dim=1).indices
        hit = (top == affinity.argmax(1).to(device).unsqueeze(1)).any(1).float().mean()
    print(f"epoch {epoch} loss {total.item() / len(loader):.4f} hit@5 {hit.item():.4f}")
