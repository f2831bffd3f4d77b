# corpus: runnable
# Red team 62 (blind): multi-crop self-supervised pretraining (2 global 8x8 + 4 local 4x4 crops per image;
# crops differ in size so each crop position is its own batch). The dataset reseeds torch per sample from
# (epoch, index); the training loop then draws its own noise from the global generator, so its draws follow
# whatever the loader last reseeded. Per-crop losses are logged as floats and summarised as a tensor.
import torch
from torch.utils.data import DataLoader

from data import MultiCrop, collate_crops, make_images
from losses import multicrop_loss, uniformity
from model import Encoder

torch.manual_seed(6206)
torch.set_num_threads(1)
device = 'cuda' if torch.cuda.is_available() else 'cpu'

images, labels = make_images(70)
ds = MultiCrop(images)
loader = DataLoader(ds, batch_size=16, shuffle=False, collate_fn=collate_crops, drop_last=False)
enc = Encoder().to(device)
opt = torch.optim.SGD(enc.parameters(), lr=0.05, momentum=0.9)

epoch_means, per_crop, unif = [], [], []
for epoch in range(3):
    ds.epoch = epoch
    crop_logs = []
    for crops in loader:
        crops = [c.to(device) for c in crops]
        jitter = torch.randn(crops[0].size(0), 1, 1, 1, device=device) * 0.05
        crops[0] = crops[0] + jitter
        embeds = [enc(c) for c in crops]
        loss, parts = multicrop_loss(embeds, tau=0.3)
        opt.zero_grad()
        loss.backward()
        opt.step()
        crop_logs.append([p.item() for p in parts])
    table = torch.tensor(crop_logs)
    per_crop.append([round(v, 4) for v in table.mean(0).tolist()])
    epoch_means.append(round(table.mean().item(), 5))
    with torch.no_grad():
        unif.append(round(uniformity(enc(images[:, :, 2:10, 2:10].to(device))).item(), 5))

print("epoch means", epoch_means)
print("per crop", per_crop[-1])
print("uniformity", unif)
print("checksum", round(sum(epoch_means) + sum(unif) + sum(per_crop[-1]), 5))
