# corpus: runnable
"""YOLOv3-style single-scale detector on synthetic images with one or two boxes: targets
as an (n, 6) tensor [image, class, x, y, w, h] from a collate, a build_targets that assigns
each box to the best anchor of its grid cell, decoding of predictions with a grid offset in
evaluation, greedy NMS."""
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, Dataset

np.random.seed(0)
torch.manual_seed(0)
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
IMG, G, NC = 32, 4, 2
ANCHORS = [(4, 4), (8, 8), (14, 14)]


class BoxDataset(Dataset):
    def __init__(self, n, seed):
        rng = np.random.RandomState(seed)
        self.samples = []
        for _ in range(n):
            img = rng.rand(1, IMG, IMG).astype(np.float32) * 0.2
            boxes = []
            for _ in range(rng.randint(1, 3)):
                w, h = rng.randint(4, 14, 2)
                x, y = rng.randint(0, IMG - w), rng.randint(0, IMG - h)
                c = rng.randint(NC)
                img[0, y:y + h, x:x + w] += 0.5 + 0.3 * c
                boxes.append([c, (x + w / 2) / IMG, (y + h / 2) / IMG, w / IMG, h / IMG])
            self.samples.append((img, np.array(boxes, dtype=np.float32)))

    def __len__(self):
        return len(self.samples)

    def __getitem__(self, i):
        img, boxes = self.samples[i]
        return torch.from_numpy(img), torch.from_numpy(boxes)


def collate_fn(batch):
    imgs, targets = [], []
    for i, (img, boxes) in enumerate(batch):
        imgs.append(img)
        targets.append(torch.cat([torch.full((len(boxes), 1), float(i)), boxes], 1))
    return torch.stack(imgs), torch.cat(targets)


class Detector(nn.Module):
    def __init__(self):
        super().__init__()
        self.body = nn.Sequential(nn.Conv2d(1, 16, 3, 2, 1), nn.LeakyReLU(0.1), nn.Conv2d(16, 32, 3, 2, 1), nn.LeakyReLU(0.1), nn.Conv2d(32, 32, 3, 2, 1), nn.LeakyReLU(0.1))
        self.head = nn.Conv2d(32, len(ANCHORS) * (5 + NC), 1)

    def forward(self, x):
        p = self.head(self.body(x))
        b = p.shape[0]
        return p.view(b, len(ANCHORS), 5 + NC, G, G).permute(0, 1, 3, 4, 2).contiguous()


def bbox_wh_iou(wh1, wh2):
    inter = torch.min(wh1[0], wh2[:, 0]) * torch.min(wh1[1], wh2[:, 1])
    return inter / (wh1[0] * wh1[1] + wh2[:, 0] * wh2[:, 1] - inter)


def build_targets(pred, targets):
    nB = pred.shape[0]
    anchors = torch.tensor(ANCHORS, dtype=torch.float32, device=pred.device) / (IMG / G)  # paef: expect redundant-tensor
    obj_mask = torch.zeros(nB, len(ANCHORS), G, G, dtype=torch.bool, device=pred.device)
    tbox = torch.zeros(nB, len(ANCHORS), G, G, 4, device=pred.device)
    tcls = torch.zeros(nB, len(ANCHORS), G, G, dtype=torch.long, device=pred.device)
    for b, c, x, y, w, h in targets.tolist():  # paef: expect host-sync; expect elementwise-loop
        gx, gy, gw, gh = x * G, y * G, w * G, h * G
        twh = torch.tensor([gw, gh], device=pred.device)
        best = bbox_wh_iou(twh, anchors).argmax()
        gi, gj = int(gx), int(gy)
        obj_mask[int(b), best, gj, gi] = True
        tbox[int(b), best, gj, gi, 0] = gx - gi
        tbox[int(b), best, gj, gi, 1] = gy - gj
        tbox[int(b), best, gj, gi, 2:] = torch.log(twh / anchors[best] + 1e-16)
        tcls[int(b), best, gj, gi] = int(c)
    return obj_mask, tbox, tcls


def yolo_loss(pred, targets):
    obj_mask, tbox, tcls = build_targets(pred, targets)
    xy, wh, conf, cls = pred[..., :2].sigmoid(), pred[..., 2:4], pred[..., 4], pred[..., 5:]
    loss_box = F.mse_loss(xy[obj_mask], tbox[obj_mask][:, :2]) + F.mse_loss(wh[obj_mask], tbox[obj_mask][:, 2:])
    loss_obj = F.binary_cross_entropy_with_logits(conf, obj_mask.float())
    loss_cls = F.cross_entropy(cls[obj_mask], tcls[obj_mask])
    return loss_box + loss_obj + loss_cls


def decode(pred):
    grid_y, grid_x = torch.meshgrid(torch.arange(G, device=pred.device), torch.arange(G, device=pred.device), indexing="ij")  # paef: expect redundant-tensor
    anchors = torch.tensor(ANCHORS, dtype=torch.float32, device=pred.device).view(1, -1, 1, 1, 2)  # paef: expect redundant-tensor
    xy = (pred[..., :2].sigmoid() + torch.stack([grid_x, grid_y], -1)) * (IMG / G)
    wh = pred[..., 2:4].exp() * anchors
    boxes = torch.cat([xy - wh / 2, xy + wh / 2], -1)
    return boxes.view(pred.shape[0], -1, 4), pred[..., 4].sigmoid().view(pred.shape[0], -1)


def nms(boxes, scores, thr=0.4):
    order = scores.argsort(descending=True)
    keep = []
    while order.numel() > 0:  # paef: refuse elementwise-loop
        i = order[0]
        keep.append(i)
        if order.numel() == 1:
            break
        rest = boxes[order[1:]]
        lt = torch.max(boxes[i, :2], rest[:, :2])
        rb = torch.min(boxes[i, 2:], rest[:, 2:])
        inter = (rb - lt).clamp(min=0).prod(1)
        area = lambda b: (b[..., 2] - b[..., 0]) * (b[..., 3] - b[..., 1])
        iou = inter / (area(boxes[i]) + area(rest) - inter)
        order = order[1:][iou < thr]
    return torch.stack(keep)  # paef: ok list-to-tensor


train_loader = DataLoader(BoxDataset(128, 0), batch_size=16, shuffle=True, collate_fn=collate_fn)  # paef: ok pageable-transfer
val_loader = DataLoader(BoxDataset(32, 1), batch_size=16, collate_fn=collate_fn)  # paef: ok pageable-transfer
model = Detector().to(device)
optimizer = torch.optim.Adam(model.parameters(), lr=2e-3)
for epoch in range(5):
    model.train()
    for batch_i, (imgs, targets) in enumerate(train_loader):
        imgs, targets = imgs.to(device), targets.to(device)
        loss = yolo_loss(model(imgs), targets)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    model.eval()
    n_kept, n_boxes = 0, 0
    with torch.no_grad():
        for imgs, targets in val_loader:
            boxes, scores = decode(model(imgs.to(device)))
            for b in range(boxes.shape[0]):
                m = scores[b] > 0.2
                if m.any():  # paef: ok host-sync
                    n_kept += len(nms(boxes[b][m], scores[b][m]))
            n_boxes += len(targets)
    print(f"epoch {epoch} loss {loss.item():.4f} kept {n_kept} of {n_boxes} boxes")
