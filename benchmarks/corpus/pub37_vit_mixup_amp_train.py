# corpus: runnable
# Public check 37 p02 (vjhawar12/Vision-Transformer-Implementation vit/train_utils.py, made runnable
# with stand-ins): per-step `.item()` of the loss and the correct count; the CutMix/MixUp gate
# (`i >= start and torch.rand(1) < p`) and the RandomChoice draw are host tensors (silent; both were
# reported at first contact).
# Public check 37, p02: ViT training with CutMix/MixUp, AMP and a GradScaler (vit/train_utils.py).
# Source: https://github.com/vjhawar12/Vision-Transformer-Implementation vit/train_utils.py @ 28831aa7
# Changes to make it run on the CPU in seconds:
# - `import tqdm` and `from torchvision.transforms.v2 import RandomChoice` (not in the venv) replaced
#   by stand-ins: an identity `loop` with `set_postfix`, and a RandomChoice that applies one of the
#   given callables. The notebook's cutmix / mixup (torchvision v2) replaced by a stand-in mixup that
#   returns one-hot soft labels (labels.ndim == 2), as the source expects.
# - a driver at the end (the notebook's caller, not fetched): tiny patch-embedding ViT stand-in,
#   seeded random 3x16x16 "images", `cuda` when available, GradScaler enabled only on CUDA,
#   4 epochs with cutmix_or_mixup_start=2 / mixup_start=1, a checksum print.
# train and validate are the source's lines.
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset


class RandomChoice:  # stand-in for torchvision.transforms.v2.RandomChoice
    def __init__(self, transforms, p=None):
        self.transforms = transforms
        self.p = p

    def __call__(self, *args):
        idx = int(torch.multinomial(torch.tensor(self.p), 1))
        return self.transforms[idx](*args)


def train(vit, device, cutmix_or_mixup_start, mixup_start, max_cutmix_or_mixup, max_mixup, optim, mixup, cutmix, sft_loss_fn, loss_fn, scaler, i, loop):
    running_loss, total, correct = 0, 0, 0

    for j, (input, labels) in enumerate(loop, 1):
        input, labels = input.to(device), labels.to(device)  # paef: ok pageable-transfer
        optim.zero_grad()

        if i >= cutmix_or_mixup_start and torch.rand(1) < min(max_cutmix_or_mixup, i/100):
            cutmix_or_mixup = RandomChoice([cutmix, mixup], p=[0.3, 0.7])
            input, labels = cutmix_or_mixup(input, labels)

        elif i >= mixup_start and torch.rand(1) < min(max_mixup, i/100):
            input, labels = mixup(input, labels)

        with torch.amp.autocast(device_type='cuda', dtype=torch.float16):
            output = vit(input)

            if labels.ndim == 2:
                loss = sft_loss_fn(output, labels)
                running_loss += loss.mean().item()  # paef: expect host-sync
            else:
                loss = loss_fn(output, labels)
                running_loss += loss.item()  # paef: expect host-sync

            scaler.scale(loss).backward()
            scaler.step(optim)
            scaler.update()

        avg_loss = running_loss / j
        loop.set_postfix(loss=avg_loss)

        pred = torch.argmax(output, dim=1)

        if labels.ndim == 2:
            labels = labels.argmax(dim=1)

        total += labels.size(0)
        correct += (pred == labels).sum().item()  # paef: expect-fix host-sync

    return total, correct, avg_loss


def validate(vit, test_dataloader, device):
    vit.eval()
    val_total, val_correct = 0, 0

    with torch.no_grad():
        for image, label in test_dataloader:
            image, label = image.to(device), label.to(device)  # paef: ok pageable-transfer

            with torch.amp.autocast(device_type='cuda', dtype=torch.float16):
              output = vit(image)

            pred = torch.argmax(output, dim=1)
            val_total += label.size(0)
            val_correct += (pred == label).sum().item()  # paef: ok host-sync

        return val_total, val_correct


# ---- stand-ins for the notebook's model, data and epoch loop (not part of train_utils.py) ----
class Loop:
    def __init__(self, loader):
        self.loader = loader
        self.postfix = {}

    def __iter__(self):
        return iter(self.loader)

    def set_postfix(self, **kw):
        self.postfix = kw


class ViT(nn.Module):
    def __init__(self, num_classes=4, dim=16):
        super().__init__()
        self.patch_embed = nn.Conv2d(3, dim, 4, 4)
        layer = nn.TransformerEncoderLayer(dim, 2, 32, dropout=0.0, batch_first=True)
        self.encoder = nn.TransformerEncoder(layer, 1)
        self.head = nn.Linear(dim, num_classes)

    def forward(self, x):
        x = self.patch_embed(x).flatten(2).transpose(1, 2)
        return self.head(self.encoder(x).mean(dim=1))


def make_mixup(num_classes):
    def mix(input, labels):
        lam = 0.7
        perm = torch.arange(input.shape[0] - 1, -1, -1, device=input.device)
        one_hot = F.one_hot(labels, num_classes).float()
        return lam * input + (1 - lam) * input[perm], lam * one_hot + (1 - lam) * one_hot[perm]
    return mix


if __name__ == "__main__":
    torch.manual_seed(0)
    device = "cuda" if torch.cuda.is_available() else "cpu"
    train_loader = DataLoader(TensorDataset(torch.randn(32, 3, 16, 16), torch.randint(0, 4, (32,))), batch_size=8, shuffle=True)
    test_loader = DataLoader(TensorDataset(torch.randn(16, 3, 16, 16), torch.randint(0, 4, (16,))), batch_size=8)
    vit = ViT().to(device)
    optim = torch.optim.AdamW(vit.parameters(), lr=1e-3)
    scaler = torch.amp.GradScaler("cuda", enabled=(device == "cuda"))
    mixup = cutmix = make_mixup(4)
    sft_loss_fn = nn.CrossEntropyLoss()  # soft targets
    loss_fn = nn.CrossEntropyLoss()
    for i in range(4):
        vit.train()
        loop = Loop(train_loader)
        total, correct, avg_loss = train(vit, device, 2, 1, 0.9, 0.9, optim, mixup, cutmix, sft_loss_fn, loss_fn, scaler, i * 40, loop)
        val_total, val_correct = validate(vit, test_loader, device)
        print(f"epoch {i} loss {avg_loss:.4f} train_acc {correct / total:.4f} val_acc {val_correct / val_total:.4f}")
    print("checksum", round(sum(p.double().sum().item() for p in vit.parameters()), 6))
