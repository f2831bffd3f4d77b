# corpus: runnable
"""RotNet self-supervised pre-training (predict which of four rotations was applied) followed
by a linear probe on frozen features: every batch is expanded into its four rotations in the
loop; the probe's features are extracted from the frozen encoder once, after pre-training."""
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset

torch.manual_seed(0)
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")


def make_images(n):
    y = torch.randint(0, 3, (n,))
    img = torch.zeros(n, 1, 12, 12)
    img[y == 0, :, 2:5, :] = 1.0
    img[y == 1, :, :, 2:5] = 1.0
    img[y == 2, :, 2:10, 2:4] = 1.0
    img[y == 2, :, 8:10, 2:10] = 1.0
    return img + 0.2 * torch.randn_like(img), y


images, classes = make_images(384)
loader = DataLoader(TensorDataset(images[:256]), batch_size=32, shuffle=True)  # paef: ok pageable-transfer
probe_loader = DataLoader(TensorDataset(images, classes), batch_size=128)  # paef: ok pageable-transfer
encoder = nn.Sequential(nn.Conv2d(1, 16, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2), nn.Conv2d(16, 16, 3, padding=1), nn.ReLU(), nn.AdaptiveAvgPool2d(1), nn.Flatten()).to(device)
rot_head = nn.Linear(16, 4).to(device)
optimizer = torch.optim.Adam(list(encoder.parameters()) + list(rot_head.parameters()), lr=3e-3)

for epoch in range(3):
    encoder.train()
    seen, correct = 0, 0
    for (x,) in loader:
        x = x.to(device)
        rotated = torch.cat([torch.rot90(x, k, dims=(2, 3)) for k in range(4)])
        targets = torch.tensor([0, 1, 2, 3], device=device).repeat_interleave(x.shape[0])  # paef: expect redundant-tensor
        logits = rot_head(encoder(rotated))
        loss = F.cross_entropy(logits, targets)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        correct += (logits.argmax(1) == targets).sum().item()  # paef: expect host-sync
        seen += targets.numel()
    print(f"epoch {epoch} rotation acc {correct / seen:.3f}")

encoder.eval()
feats, labels = [], []
for x, y in probe_loader:  # paef: expect-fix eval-without-no-grad
    feats.append(encoder(x.to(device)))
    labels.append(y.to(device))
feats, labels = torch.cat(feats), torch.cat(labels)
probe = nn.Linear(16, 3).to(device)
probe_opt = torch.optim.Adam(probe.parameters(), lr=0.05)
for _ in range(100):
    loss = F.cross_entropy(probe(feats[:256].detach()), labels[:256])
    probe_opt.zero_grad()
    loss.backward()
    probe_opt.step()
acc = (probe(feats[256:]).argmax(1) == labels[256:]).float().mean()
print(f"linear probe acc {acc.item():.3f}")
