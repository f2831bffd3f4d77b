# Public check 36, p08: UNet segmentation training (aladdinpersson-style train_fn / check_accuracy).
# Source: https://github.com/yacchuang/Brain_Segmentation_3DUNET
#   train.py @ 3054a2bf (train_fn, main) and utils.py @ 01bb7709 (save_checkpoint, check_accuracy).
# Changes to make it run on the CPU in seconds:
# - the two files are joined in one module; `from UNETmodel import UNET`, `from utils import ...`,
#   albumentations, torchvision, SimpleITK, nibabel, matplotlib imports dropped (not in the venv or
#   not fetched); `tqdm` (not in the venv) replaced by a stand-in with `set_postfix`.
# - UNET replaced by a tiny 3D conv stand-in; `get_loaders` (its two versions in the repository
#   disagree on the arguments) replaced by a stand-in returning pinned DataLoaders of seeded random
#   volumes (1x8x8x8) and masks, with the same call as main's; the albumentations transforms left
#   out (the stand-in data needs none); `save_predictions_as_imgs` (not in utils.py at this
#   commit) and `load_checkpoint` dropped; checkpoints written in a temporary directory.
# - BATCH_SIZE 16 -> 4, NUM_EPOCHS 3 -> 2, NUM_WORKERS 2 -> 0, the image directories unused;
#   a checksum print at the end of main.
# train_fn and check_accuracy are the source's lines.
import os
import tempfile

import torch
import torch.nn as nn
import torch.optim as optim
from torch.utils.data import DataLoader, TensorDataset


# ---- stand-ins (not part of the source) ----
class tqdm:
    def __init__(self, iterable):
        self.iterable = iterable
        self.postfix = {}

    def __iter__(self):
        return iter(self.iterable)

    def set_postfix(self, **kw):
        self.postfix = kw


class UNET(nn.Module):
    def __init__(self, in_channels=1, out_channels=1):
        super().__init__()
        self.net = nn.Sequential(nn.Conv3d(in_channels, 4, 3, padding=1), nn.ReLU(), nn.Conv3d(4, out_channels, 1))

    def forward(self, x):
        if x.dim() == 4:  # train_fn passes volumes without the channel check_accuracy adds
            x = x.unsqueeze(1)
        return self.net(x)


def get_loaders(train_dir, train_maskdir, val_dir, val_maskdir, batch_size, train_transform, val_transform,
                num_workers, pin_memory):
    g = torch.Generator().manual_seed(0)
    def ds(n):
        x = torch.rand(n, 8, 8, 8, generator=g)
        return TensorDataset(x, (x > 0.5).float())
    return (DataLoader(ds(16), batch_size=batch_size, num_workers=num_workers, pin_memory=pin_memory, shuffle=True),
            DataLoader(ds(8), batch_size=batch_size, num_workers=num_workers, pin_memory=pin_memory, shuffle=False))
# ---- end of stand-ins ----

torch.manual_seed(0)

# Hyperparameters etc.
LEARNING_RATE = 1e-4
DEVICE = "cuda" if torch.cuda.is_available() else "cpu"
BATCH_SIZE = 4 # CAN INCREASE
NUM_EPOCHS = 2
NUM_WORKERS = 0
PIN_MEMORY = True
LOAD_MODEL = False  # True


def save_checkpoint(state, filename = "PFcheckpoint_test.pth.tar"):
    print("=> Saving checkpoint")
    torch.save(state, filename)


def check_accuracy(loader, model, device="cuda"):
    num_correct = 0
    num_pixels = 0
    dice_score = 0    # For multiclass seg, probably a better score
    model.eval()
    
    
    with torch.no_grad():
        for x, y in loader:
            x = x.float().unsqueeze(1).to(device)
            y = y.float().unsqueeze(1).to(device)  # label doesn't have color
            preds = torch.sigmoid(model(x))
            preds = (preds > 0.5).float()
            num_correct += (preds == y).sum()
            num_pixels += torch.numel(preds)
            dice_score += (2 * (preds * y).sum()) / (
                (preds + y).sum() + 1e-8
                
            )

    print(f"Got {num_correct}/{num_pixels} with acc {num_correct}/{num_pixels*100:.2f}")
    
    print(f"Dice score: {dice_score/len(loader)}")
    
    model.train()


def train_fn(loader, model, optimizer, loss_fn, scaler):
    loop = tqdm(loader)
    
    for batch_idx, (data, targets) in enumerate(loop):
        data = data.to(device=DEVICE)
        targets = targets.float().unsqueeze(1).to(device=DEVICE)
        
        # forward
        with torch.cuda.amp.autocast():
            predictions = model(data)
            loss = loss_fn(predictions, targets)
            
        # backward
        optimizer.zero_grad()
        scaler.scale(loss).backward()
        scaler.step(optimizer)
        scaler.update()
        
        # update tqdm loop
        loop.set_postfix(loss=loss.item())


def main():
    model = UNET(in_channels=1, out_channels=1).to(DEVICE)  # For multiclass segmentation, out_channels can increase
    loss_fn = nn.BCEWithLogitsLoss() # For multiclass seg: cross entropy loss
    optimizer = optim.Adam(model.parameters(), lr = LEARNING_RATE)
    
    train_loader, val_loader = get_loaders(
        None,
        None,
        None,
        None,
        BATCH_SIZE,
        None,
        None,
        NUM_WORKERS,
        PIN_MEMORY,
        
    )
    
    check_accuracy(val_loader, model, device=DEVICE)
    scaler = torch.cuda.amp.GradScaler()
    
    
    for epoch in range(NUM_EPOCHS):
        train_fn(train_loader, model, optimizer, loss_fn, scaler)
    
        # save model
        checkpoint = {
            "state_dict": model.state_dict(),
            "optimizer": optimizer.state_dict(),
        }
        save_checkpoint(checkpoint)
        
        # check accuracy
        check_accuracy(val_loader, model, device=DEVICE)
    print("checksum", round(sum(float(p.detach().sum()) for p in model.parameters()), 5))
    
    
if __name__ == "__main__":
    here = os.getcwd()
    with tempfile.TemporaryDirectory() as tmp:
        os.chdir(tmp)
        main()
        os.chdir(here)
