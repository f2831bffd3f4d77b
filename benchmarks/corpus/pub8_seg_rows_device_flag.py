# corpus: runnable
"""Written after public check 8 (a segmentation `evaluate_model`, a Udacity sentiment test loop, a
Hugging Face course loop): predictions and targets copied to the host one row at a time, a copy in
the GPU arm of a `train_on_gpu` flag, and dict batches copied in a comprehension inside the loop."""
import numpy as np
import torch
import torch.nn.functional as F
from torch.utils.data import DataLoader, Dataset

torch.manual_seed(0)
torch.set_num_threads(1)
train_on_gpu = torch.cuda.is_available()
device = "cuda" if train_on_gpu else "cpu"


class Encoded(Dataset):
    def __len__(self):
        return 24

    def __getitem__(self, i):
        g = torch.Generator().manual_seed(i)
        return {"pixels": torch.rand(1, 6, 6, generator=g), "mask": (torch.rand(1, 6, 6, generator=g) > 0.5).float()}


model = torch.nn.Conv2d(1, 1, 3, padding=1).to(device)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
train_loader = DataLoader(Encoded(), batch_size=6)  # paef: ok pageable-transfer; ok sync-dataloader
for epoch in range(2):
    for batch in train_loader:
        batch = {k: v.to(device) for k, v in batch.items()}
        loss = F.binary_cross_entropy_with_logits(model(batch["pixels"]), batch["mask"])
        opt.zero_grad()
        loss.backward()
        opt.step()


def evaluate_model(loader):
    model.eval()
    pred, real = [], []
    num_correct = 0
    with torch.no_grad():
        for batch in loader:
            images = batch["pixels"].to(device, non_blocking=True)
            masks = batch["mask"].to(device, non_blocking=True)
            o1 = model(images)
            for i, logits in enumerate(o1):
                pred.append(torch.sigmoid(logits).cpu().numpy())  # paef: ok host-sync
            for tar in masks:
                real.append(tar.cpu().numpy())  # paef: ok host-sync
            hits = (o1 > 0).float().eq(masks)
            correct = np.squeeze(hits.numpy()) if not train_on_gpu else np.squeeze(hits.cpu().numpy())  # paef: ok host-sync
            num_correct += int(np.sum(correct))
    return np.array(pred), np.array(real), num_correct


eval_loader = DataLoader(Encoded(), batch_size=6, pin_memory=train_on_gpu)
p, r, n = evaluate_model(eval_loader)
dice = (2 * (p > 0.5) * r).sum() / ((p > 0.5).sum() + r.sum())
print(round(float(dice), 6), n)
