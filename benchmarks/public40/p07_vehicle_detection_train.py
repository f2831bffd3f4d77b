# Public check 40, p07: object detection training loop (torchvision-style detector: list of images, list of
# target dicts, a dict of losses summed).
# Source: https://github.com/VishnuSM9095/Vehicle_detection model/train.py @ 90cbc382 (train_model).
# Changes to make it run on the CPU in seconds:
# - the repo's detector (torchvision Faster R-CNN) and its aerial-image dataset: not installed / too large ->
#   a stand-in detector with the torchvision training contract (`model(images, targets)` returns a dict
#   of four losses: classifier, box regression, objectness, RPN box regression) over a small conv backbone,
#   and a seeded dataset of 12 3x32x32 images with 1-3 boxes each, batched by a tuple-of-lists collate
#   (as torchvision's detection references do), batch 4, no workers.
# - a driver: SGD as torchvision's tutorial does, 2 epochs, the seed, a checksum print at the end.
# train_model is the source's lines.
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, Dataset


# ---- stand-ins: the detector and the dataset ----
class TinyDetector(nn.Module):
    def __init__(self, num_classes=3):
        super().__init__()
        self.backbone = nn.Sequential(nn.Conv2d(3, 8, 3, padding=1), nn.ReLU(), nn.AdaptiveAvgPool2d(4))
        self.cls = nn.Linear(128, num_classes)
        self.box = nn.Linear(128, 4)
        self.obj = nn.Linear(128, 1)

    def forward(self, images, targets):
        feats = self.backbone(torch.stack(images)).flatten(1)
        n = [len(t["labels"]) for t in targets]
        rep = torch.repeat_interleave(feats, torch.tensor(n, device=feats.device), dim=0)
        labels = torch.cat([t["labels"] for t in targets])
        boxes = torch.cat([t["boxes"] for t in targets]) / 32.0
        return {
            "loss_classifier": F.cross_entropy(self.cls(rep), labels),
            "loss_box_reg": F.smooth_l1_loss(self.box(rep), boxes),
            "loss_objectness": F.binary_cross_entropy_with_logits(self.obj(feats).squeeze(1), torch.ones(len(images), device=feats.device)),
            "loss_rpn_box_reg": F.l1_loss(torch.sigmoid(self.box(rep)), boxes),
        }


class VehicleDataset(Dataset):
    def __init__(self, n=12):
        g = torch.Generator().manual_seed(0)
        self.images = torch.rand(n, 3, 32, 32, generator=g)
        self.targets = []
        for i in range(n):
            k = 1 + i % 3
            xy = torch.rand(k, 2, generator=g) * 20
            wh = 4 + torch.rand(k, 2, generator=g) * 8
            self.targets.append({"boxes": torch.cat([xy, xy + wh], 1), "labels": torch.randint(0, 3, (k,), generator=g)})

    def __len__(self):
        return len(self.images)

    def __getitem__(self, i):
        return self.images[i], self.targets[i]


def collate_fn(batch):
    return tuple(zip(*batch))


# ---- source: model/train.py ----
def train_model(model, dataloader, optimizer, num_epochs, device):
    model.to(device)
    for epoch in range(num_epochs):
        model.train()
        for images, targets in dataloader:
            images = list(image.to(device) for image in images)
            targets = [{k: v.to(device) for k, v in t.items()} for t in targets]
            loss_dict = model(images, targets)
            losses = sum(loss for loss in loss_dict.values())
            optimizer.zero_grad()
            losses.backward()
            optimizer.step()
        print(f'Epoch {epoch}, Loss: {losses.item()}')


# ---- driver ----
if __name__ == "__main__":
    torch.manual_seed(0)
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    model = TinyDetector()
    loader = DataLoader(VehicleDataset(), batch_size=4, shuffle=True, collate_fn=collate_fn)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.005, momentum=0.9, weight_decay=0.0005)
    train_model(model, loader, optimizer, 2, device)
    print(f"checksum {sum(float(p.detach().double().sum()) for p in model.parameters()):.6f}")
