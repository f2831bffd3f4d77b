# corpus: runnable
"""Person re-identification embeddings (batch-hard triplet loss) used by a toy tracker: each
frame's detections are matched to existing tracks by cosine cost with a greedy NumPy
assignment; the cost matrix makes a round trip to the host and back every frame."""
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
np.random.seed(0)
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
N_ID, DIM = 10, 24


class Embedder(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(DIM, 64), nn.ReLU(), nn.Linear(64, 16))

    def forward(self, x):
        return F.normalize(self.net(x), dim=1)


def batch_hard_triplet(emb, labels, margin=0.3):
    d = torch.cdist(emb, emb)
    same = labels[:, None] == labels[None, :]
    hardest_pos = (d * same).max(1).values
    hardest_neg = (d + 1e3 * same).min(1).values
    return F.relu(hardest_pos - hardest_neg + margin).mean()


prototypes = torch.randn(N_ID, DIM)
ids = torch.randint(0, N_ID, (1000,))
feats = (prototypes[ids] + 0.4 * torch.randn(1000, DIM)).to(device)
ids = ids.to(device)
model = Embedder().to(device)
opt = torch.optim.Adam(model.parameters(), lr=3e-3)
for step in range(150):
    pick = torch.randint(0, 1000, (64,), device=device)
    loss = batch_hard_triplet(model(feats[pick]), ids[pick])
    opt.zero_grad()
    loss.backward()
    opt.step()
    if step % 50 == 0:
        print(f"step {step} triplet {loss.item():.4f}")  # paef: ok host-sync


def greedy_assign(cost, max_cost=0.5):
    pairs = []
    cost = cost.copy()
    while cost.size and cost.min() < max_cost:
        r, c = np.unravel_index(cost.argmin(), cost.shape)
        pairs.append((r, c))
        cost[r, :] = np.inf
        cost[:, c] = np.inf
    return pairs


model.eval()
track_ids = torch.arange(4)
with torch.no_grad():
    tracks = model(prototypes[track_ids].to(device))
    switches = 0
    for frame in range(20):
        det_ids = track_ids[torch.randperm(4)]
        dets = model((prototypes[det_ids] + 0.3 * torch.randn(4, DIM)).to(device))  # paef: refuse cpu-then-move
        cost = 1 - dets @ tracks.T
        pairs = greedy_assign(cost.cpu().numpy())  # paef: ok host-sync
        match = torch.tensor(pairs, device=device)  # paef: refuse ping-pong
        tracks[match[:, 1]] = 0.9 * tracks[match[:, 1]] + 0.1 * dets[match[:, 0]]
        tracks = F.normalize(tracks, dim=1)
        switches += int((det_ids[match[:, 0].cpu()] != track_ids[match[:, 1].cpu()]).sum())  # paef: ok host-sync
print(f"id switches over 20 frames: {switches}")
