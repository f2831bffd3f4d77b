# Public check 40, p04: U-Net segmentation of nail images (BCE with logits), the repo's three files in one.
# Source: https://github.com/ustl2024/Nail2 T3/train.py @ 177e97b9, T3/net.py @ 809dcc9f (the UNet and
#   `device`), T3/nail2.py @ d3d065da (NailDataset, transform, train_loader); `from net import *` and
#   `from nail2 import *` are replaced by their lines, in that order.
# Changes to make it run on the CPU in seconds:
# - PIL, torchvision.transforms, os.listdir (a Windows image folder): stand-ins - `os.listdir` of the two
#   folders lists 8 file names, `Image.open(path).convert(mode)` makes a seeded image (RGB or L) from the
#   name, `transforms.Resize((256, 256))` -> Resize((16, 16)) by nearest neighbour, ToTensor scales to [0, 1].
# - matplotlib, sklearn.metrics, skimage: imported by the source, unused in training: left out.
# - num_epochs 50 -> 2; the seed; a checksum print at the end.
# The UNet, the dataset class and the training loop are the source's lines.
import os

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
import torch.optim as optim
from torch.utils.data import Dataset, DataLoader


# ---- stand-ins: PIL.Image, torchvision.transforms, the image folders ----
class _Img:
    def __init__(self, arr):
        self.arr = arr

    def convert(self, mode):
        if mode == "RGB":
            return _Img(np.repeat(self.arr[:, :, None], 3, axis=2))
        return _Img((self.arr > 127).astype(np.uint8) * 255)


class Image:
    @staticmethod
    def open(path):
        seed = sum(path.encode()) % 1000
        return _Img(np.random.RandomState(seed).randint(0, 256, (24, 24)).astype(np.uint8))


class transforms:
    class Compose:
        def __init__(self, ts):
            self.ts = ts

        def __call__(self, x):
            for t in self.ts:
                x = t(x)
            return x

    class Resize:
        def __init__(self, size):
            self.size = (16, 16)

        def __call__(self, img):
            a = img.arr
            ri = np.arange(self.size[0]) * a.shape[0] // self.size[0]
            ci = np.arange(self.size[1]) * a.shape[1] // self.size[1]
            return _Img(a[ri][:, ci])

    class ToTensor:
        def __call__(self, img):
            a = img.arr.astype(np.float32) / 255.0
            if a.ndim == 2:
                a = a[:, :, None]
            return torch.from_numpy(a).permute(2, 0, 1).contiguous()


_listdir = os.listdir
os.listdir = lambda d: [f"nail_{i}.png" for i in range(8)] if "archive" in d else _listdir(d)
torch.manual_seed(0)


# ---- source: T3/nail2.py ----
class NailDataset(Dataset):
    def __init__(self, image_dir, label_dir, transform=None):
        self.image_dir = image_dir
        self.label_dir = label_dir
        self.transform = transform
        self.image_files = sorted([f for f in os.listdir(image_dir) if f.endswith('.png') or f.endswith('.jpg')])
        self.label_files = sorted([f for f in os.listdir(label_dir) if f.endswith('.png') or f.endswith('.jpg')])

        if len(self.image_files) != len(self.label_files):
            raise ValueError(
                f"Mismatch between number of images ({len(self.image_files)}) and labels ({len(self.label_files)})")

    def __len__(self):
        return len(self.image_files)

    def __getitem__(self, idx):
        if idx >= len(self.image_files):
            raise IndexError(f"Index {idx} out of range for image_files list with length {len(self.image_files)}")
        if idx >= len(self.label_files):
            raise IndexError(f"Index {idx} out of range for label_files list with length {len(self.label_files)}")

        img_path = os.path.join(self.image_dir, self.image_files[idx])
        label_path = os.path.join(self.label_dir, self.label_files[idx])

        image = Image.open(img_path).convert('RGB')
        label = Image.open(label_path).convert('L')

        if self.transform:
            image = self.transform(image)
            label = self.transform(label)

        return image, label


# Define the transforms
transform = transforms.Compose([
    transforms.Resize((256, 256)),
    transforms.ToTensor()
])

# Create datasets and dataloaders
train_dataset = NailDataset(r'D:\pythonProject\T3\archive\images',  r'D:\pythonProject\T3\archive\labels', transform=transform)
train_loader = DataLoader(train_dataset, batch_size=4, shuffle=True)


# ---- source: T3/net.py ----
class UNet(nn.Module):
    def __init__(self, in_channels=3, out_channels=1):
        super(UNet, self).__init__()

        # 卷积块
        self.encoder1 = self.conv_block(in_channels, 64)
        self.encoder2 = self.conv_block(64, 128)
        self.encoder3 = self.conv_block(128, 256)
        self.encoder4 = self.conv_block(256, 512)

        # 卷积层
        self.bottleneck = nn.Sequential(
            nn.Conv2d(512, 1024, kernel_size=3, padding=2, dilation=2),
            nn.ReLU(inplace=True),
            nn.Conv2d(1024, 1024, kernel_size=3, padding=2, dilation=2),
            nn.ReLU(inplace=True)
        )

        # 上采样和卷积操作
        self.upconv4 = self.upconv_block(1024, 512)
        self.conv4 = self.conv_block(1024, 512)
        self.upconv3 = self.upconv_block(512, 256)
        self.conv3 = self.conv_block(512, 256)
        self.upconv2 = self.upconv_block(256, 128)
        self.conv2 = self.conv_block(256, 128)
        self.upconv1 = self.upconv_block(128, 64)
        self.conv1 = self.conv_block(128, 64)

        # Final layer
        self.final = nn.Conv2d(64, out_channels, kernel_size=1)

    def conv_block(self, in_channels, out_channels):
        return nn.Sequential(
            nn.Conv2d(in_channels, out_channels, kernel_size=3, padding=1),
            nn.BatchNorm2d(out_channels),
            nn.ReLU(inplace=True),
            nn.Conv2d(out_channels, out_channels, kernel_size=3, padding=1),
            nn.BatchNorm2d(out_channels),
            nn.ReLU(inplace=True)
        )

    def upconv_block(self, in_channels, out_channels):
        return nn.Sequential(
            nn.ConvTranspose2d(in_channels, out_channels, kernel_size=2, stride=2),
            nn.BatchNorm2d(out_channels),
            nn.ReLU(inplace=True)
        )

    def forward(self, x):
        # Encoder
        e1 = self.encoder1(x)
        e2 = self.encoder2(F.max_pool2d(e1, 2))
        e3 = self.encoder3(F.max_pool2d(e2, 2))
        e4 = self.encoder4(F.max_pool2d(e3, 2))

        # Bottleneck
        b = self.bottleneck(F.max_pool2d(e4, 2))

        # Decoder
        d4 = self.upconv4(b)
        d4 = torch.cat((d4, e4), dim=1)
        d4 = self.conv4(d4)

        d3 = self.upconv3(d4)
        d3 = torch.cat((d3, e3), dim=1)
        d3 = self.conv3(d3)

        d2 = self.upconv2(d3)
        d2 = torch.cat((d2, e2), dim=1)
        d2 = self.conv2(d2)

        d1 = self.upconv1(d2)
        d1 = torch.cat((d1, e1), dim=1)
        d1 = self.conv1(d1)

        out = self.final(d1)
        return out


# Check if CUDA is available
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
print(f"Using device: {device}")

# ---- source: T3/train.py ----
model = UNet().to(device)
criterion = nn.BCEWithLogitsLoss()
optimizer = optim.Adam(model.parameters(), lr=1e-4)

num_epochs = 2
for epoch in range(num_epochs):
    model.train()
    running_loss = 0.0
    for images, labels in train_loader:
        images = images.to(device)
        labels = labels.squeeze(1).to(device)

        optimizer.zero_grad()
        outputs = model(images)
        loss = criterion(outputs.squeeze(1), labels)
        loss.backward()
        optimizer.step()

        running_loss += loss.item() * images.size(0)

    epoch_loss = running_loss / len(train_loader.dataset)
    print(f'Epoch [{epoch + 1}/{num_epochs}], Loss: {epoch_loss:.4f}')

print(f"checksum {sum(float(p.detach().double().sum()) for p in model.parameters()):.6f}")
