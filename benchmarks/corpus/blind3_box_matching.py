# corpus: runnable
"""Anchor matching for a toy single-shot detector: IoU matrix, best-anchor-per-box forcing,
box encoding, a per-image loss loop, and greedy NMS at inference."""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")


def make_anchors(grid=4, size=0.3):
    c = (torch.arange(grid, dtype=torch.float) + 0.5) / grid
    cy, cx = torch.meshgrid(c, c, indexing="ij")
    ctr = torch.stack([cx.flatten(), cy.flatten()], 1)
    return torch.cat([ctr - size / 2, ctr + size / 2], 1)


def box_iou(a, b):
    area_a = (a[:, 2] - a[:, 0]) * (a[:, 3] - a[:, 1])
    area_b = (b[:, 2] - b[:, 0]) * (b[:, 3] - b[:, 1])
    lt = torch.max(a[:, None, :2], b[None, :, :2])
    rb = torch.min(a[:, None, 2:], b[None, :, 2:])
    inter = (rb - lt).clamp(min=0).prod(2)
    return inter / (area_a[:, None] + area_b[None] - inter)


def match(anchors, gt_boxes, thresh=0.4):
    iou = box_iou(anchors, gt_boxes)
    best_iou, best_gt = iou.max(1)
    best_anchor = iou.argmax(0)
    for j in range(best_anchor.shape[0]):  # paef: refuse elementwise-loop
        best_gt[best_anchor[j]] = j
        best_iou[best_anchor[j]] = 2.0
    labels = torch.where(best_iou >= thresh, torch.ones_like(best_gt), torch.zeros_like(best_gt))
    return labels, gt_boxes[best_gt]


def nms(boxes, scores, thr=0.5):
    order = scores.argsort(descending=True)
    keep = []
    while order.numel() > 0:  # paef: refuse elementwise-loop
        i = order[0]
        keep.append(i)
        if order.numel() == 1:
            break
        ious = box_iou(boxes[i].unsqueeze(0), boxes[order[1:]]).squeeze(0)
        order = order[1:][ious <= thr]
    return torch.stack(keep)


def random_image_targets(n):
    out = []
    for _ in range(n):
        k = torch.randint(1, 3, ()).item()
        xy = torch.rand(k, 2) * 0.6
        wh = torch.rand(k, 2) * 0.3 + 0.1
        out.append(torch.cat([xy, xy + wh], 1))
    return out


anchors = make_anchors().to(device)
head = nn.Sequential(nn.Linear(8, 32), nn.ReLU(), nn.Linear(32, anchors.shape[0] * 5)).to(device)
opt = torch.optim.Adam(head.parameters(), lr=1e-2)
targets = [t.to(device) for t in random_image_targets(32)]
feats = torch.stack([torch.cat([t[0], t[-1]]) for t in targets])

for epoch in range(20):
    out = head(feats).view(len(targets), -1, 5)
    losses = []
    for i in range(len(targets)):
        labels, matched = match(anchors, targets[i])  # paef: ok redundant-tensor
        cls_loss = F.binary_cross_entropy_with_logits(out[i, :, 0], labels.float())
        pos = labels == 1
        reg_loss = F.smooth_l1_loss(out[i, pos, 1:], matched[pos] - anchors[pos]) if pos.any() else out.sum() * 0  # paef: ok host-sync
        losses.append(cls_loss + reg_loss)
    loss = torch.stack(losses).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
    if epoch % 10 == 0:
        print(f"epoch {epoch} loss {loss.item():.4f}")

with torch.no_grad():
    out = head(feats[:1]).view(-1, 5)
    scores = torch.sigmoid(out[:, 0])
    boxes = anchors + out[:, 1:]
    keep = nms(boxes, scores)
    n_conf = 0
    for k in range(keep.shape[0]):  # paef: expect elementwise-loop
        if scores[keep[k]] > 0.5:
            n_conf += 1
print(f"kept {keep.numel()} boxes, {n_conf} confident, top score {scores.max().item():.4f}")
