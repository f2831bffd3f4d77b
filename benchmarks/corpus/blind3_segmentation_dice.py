# corpus: runnable
"""Semantic segmentation of synthetic shapes with a tiny encoder-decoder: soft Dice + CE
loss with a one-hot target built per batch, per-class IoU in evaluation."""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
C, H, W = 3, 16, 16


def make_data(n):
    yy, xx = torch.meshgrid(torch.arange(H), torch.arange(W), indexing="ij")
    imgs, masks = [], []
    for _ in range(n):
        m = torch.zeros(H, W, dtype=torch.long)
        cy, cx, r = torch.randint(4, 12, (3,)).tolist()
        m[((yy - cy) ** 2 + (xx - cx) ** 2) < (r // 2 + 2) ** 2] = 1
        y0, x0 = torch.randint(0, 10, (2,)).tolist()
        m[y0:y0 + 5, x0:x0 + 5] = 2
        imgs.append(m.float().unsqueeze(0) + 0.3 * torch.randn(1, H, W))
        masks.append(m)
    return torch.stack(imgs), torch.stack(masks)


class SegNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.enc1 = nn.Sequential(nn.Conv2d(1, 16, 3, padding=1), nn.ReLU())
        self.enc2 = nn.Sequential(nn.MaxPool2d(2), nn.Conv2d(16, 32, 3, padding=1), nn.ReLU())
        self.up = nn.ConvTranspose2d(32, 16, 2, stride=2)
        self.dec = nn.Conv2d(32, C, 3, padding=1)

    def forward(self, x):
        e1 = self.enc1(x)
        return self.dec(torch.cat([self.up(self.enc2(e1)), e1], 1))


def dice_loss(logits, target, eps=1.0):
    probs = logits.softmax(1)
    one_hot = torch.zeros(target.shape[0], C, H, W).to(target.device)  # paef: expect-fix cpu-then-move; refuse redundant-tensor
    one_hot.scatter_(1, target.unsqueeze(1), 1.0)
    inter = (probs * one_hot).sum((0, 2, 3))
    union = probs.sum((0, 2, 3)) + one_hot.sum((0, 2, 3))
    return 1 - ((2 * inter + eps) / (union + eps)).mean()


x_train, y_train = make_data(96)
x_val, y_val = make_data(32)
model = SegNet().to(device)
opt = torch.optim.Adam(model.parameters(), lr=5e-3)

for epoch in range(4):
    model.train()
    perm = torch.randperm(len(x_train))
    for b in range(0, len(perm), 16):
        idx = perm[b:b + 16]
        x, y = x_train[idx].to(device), y_train[idx].to(device)
        logits = model(x)
        loss = F.cross_entropy(logits, y) + dice_loss(logits, y)
        opt.zero_grad()
        loss.backward()
        opt.step()
    model.eval()
    with torch.no_grad():
        pred = model(x_val.to(device)).argmax(1)
        target = y_val.to(device)
        ious = []
        for c in range(C):
            inter = ((pred == c) & (target == c)).sum().item()
            union = ((pred == c) | (target == c)).sum().item()
            ious.append(inter / union if union else float("nan"))
    print(f"epoch {epoch} loss {loss.item():.4f} mIoU {sum(ious) / C:.3f}")
