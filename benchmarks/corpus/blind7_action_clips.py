# corpus: runnable
"""Temporal action recognition over pre-extracted clip features (a TSN-style consensus over
segments); the training loop builds the per-batch segment-score tensor from a Python list of
per-clip scalars, and the validation video accuracy is collected clip by clip."""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
CLASSES, SEGS, FEAT = 5, 4, 48

centers = torch.randn(CLASSES, FEAT)
vid_label = torch.randint(0, CLASSES, (400,))
clips = centers[vid_label][:, None, :] + torch.randn(400, SEGS, FEAT)
clips, vid_label = clips.to(device), vid_label.to(device)
seg_net = nn.Sequential(nn.Linear(FEAT, 64), nn.ReLU(), nn.Linear(64, CLASSES)).to(device)
attn = nn.Linear(FEAT, 1).to(device)
opt = torch.optim.SGD(list(seg_net.parameters()) + list(attn.parameters()), lr=0.05, momentum=0.9)
for epoch in range(5):
    perm = torch.randperm(320, device=device)
    for i in range(0, 320, 32):
        idx = perm[i : i + 32]
        x = clips[idx]
        w = F.softmax(attn(x), 1)
        logits = (w * seg_net(x)).sum(1)
        loss = F.cross_entropy(logits, vid_label[idx])
        opt.zero_grad()
        loss.backward()
        opt.step()
        ent = [-(w[b] * w[b].log()).sum().item() for b in range(len(idx))]  # paef: expect host-sync; ok elementwise-loop
        ent = torch.tensor(ent, device=device)  # paef: expect list-to-tensor
    print(f"epoch {epoch} loss {loss.item():.4f} attention entropy {ent.mean().item():.3f}")

with torch.no_grad():
    correct = []
    for v in range(320, 400):  # paef: ok elementwise-loop
        x = clips[v : v + 1]
        pred = (F.softmax(attn(x), 1) * seg_net(x)).sum(1).argmax(1)
        correct.append(pred == vid_label[v])
    acc = torch.cat(correct).float().mean()  # paef: ok list-to-tensor
print(f"video acc {acc.item():.3f}")
