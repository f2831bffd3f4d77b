# corpus: runnable
"""Self-training: pseudo-labels computed through NumPy (argmax, clip) and sent back to the device."""
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
device = "cuda" if torch.cuda.is_available() else "cpu"


def pseudo_labels(logits, threshold=0.6):
    probs = logits.softmax(1).detach().cpu().numpy()  # paef: ok ping-pong; ok host-sync
    labels = probs.argmax(1)
    conf = np.clip(probs.max(1), 0.0, 1.0)
    return torch.from_numpy(labels).to(device), torch.from_numpy(conf >= threshold).to(device)  # paef: expect ping-pong


model = nn.Sequential(nn.Linear(6, 16), nn.ReLU(), nn.Linear(16, 3)).to(device)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
labelled_x = torch.randn(60, 6, device=device)
labelled_y = labelled_x[:, :3].argmax(1)
unlabelled = torch.randn(240, 6, device=device)

for epoch in range(5):
    sup = F.cross_entropy(model(labelled_x), labelled_y)
    logits_u = model(unlabelled)
    targets_u, keep = pseudo_labels(logits_u)
    unsup = (F.cross_entropy(logits_u, targets_u, reduction="none") * keep.float()).mean()
    loss = sup + 0.5 * unsup
    opt.zero_grad()
    loss.backward()
    opt.step()
    print(f"epoch {epoch} loss {loss.item():.4f} kept {int(keep.sum())}")  # paef: ok host-sync
