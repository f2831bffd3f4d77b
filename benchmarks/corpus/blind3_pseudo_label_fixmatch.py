# corpus: runnable
"""Semi-supervised training with confidence-thresholded pseudo labels (FixMatch-like, weak
and strong noise instead of image augmentations), class-balance statistics of the pseudo
labels, and a NumPy detour for thresholding."""
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

np.random.seed(0)
torch.manual_seed(0)
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
n_classes, threshold = 3, 0.8

centers = torch.randn(n_classes, 8) * 2
y_lab = torch.arange(30) % n_classes
x_lab = centers[y_lab] + torch.randn(30, 8)
y_unl_true = torch.randint(0, n_classes, (600,))
x_unl = centers[y_unl_true] + torch.randn(600, 8)
model = nn.Sequential(nn.Linear(8, 32), nn.ReLU(), nn.Linear(32, n_classes)).to(device)
opt = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)
x_lab, y_lab = x_lab.to(device), y_lab.to(device)

for epoch in range(5):
    perm = torch.randperm(len(x_unl))
    counts = [0] * n_classes
    n_masked = 0
    for b in range(0, len(perm), 100):
        xu = x_unl[perm[b:b + 100]].to(device)
        weak, strong = xu + 0.05 * torch.randn_like(xu), xu + 0.5 * torch.randn_like(xu)
        with torch.no_grad():
            probs = F.softmax(model(weak), dim=1).cpu().numpy()
        conf = probs.max(axis=1)
        pseudo = torch.from_numpy(probs.argmax(axis=1)).to(device)  # paef: expect ping-pong
        mask = torch.from_numpy((conf >= threshold).astype(np.float32)).to(device)  # paef: expect ping-pong
        for i in range(pseudo.shape[0]):  # paef: expect elementwise-loop
            if mask[i] > 0:  # paef: ok host-sync
                counts[pseudo[i].item()] += 1
        n_masked += int(mask.sum().item())  # paef: ok host-sync
        loss_u = (F.cross_entropy(model(strong), pseudo, reduction="none") * mask).mean()
        loss_s = F.cross_entropy(model(x_lab), y_lab)
        loss = loss_s + loss_u
        opt.zero_grad()
        loss.backward()
        opt.step()
    with torch.no_grad():
        acc = (model(x_unl.to(device)).argmax(1).cpu() == y_unl_true).float().mean().item()
    print(f"epoch {epoch} pseudo-labelled {n_masked} per class {counts} unlabeled acc {acc:.3f}")
