# corpus: runnable
"""A small PixelCNN on binarised 8x8 glyphs: masked convolutions (type A for the first layer,
type B after) whose mask is rebuilt from the kernel shape in every forward, a Bernoulli
likelihood, and autoregressive sampling pixel by pixel at the end."""
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset

torch.manual_seed(0)
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
S = 8


class MaskedConv2d(nn.Conv2d):
    def __init__(self, mask_type, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.mask_type = mask_type

    def forward(self, x):
        _, _, kh, kw = self.weight.shape
        mask = torch.ones_like(self.weight)  # paef: expect redundant-tensor
        mask[:, :, kh // 2, kw // 2 + (self.mask_type == "B") :] = 0
        mask[:, :, kh // 2 + 1 :] = 0
        return F.conv2d(x, self.weight * mask, self.bias, self.stride, self.padding)


class PixelCNN(nn.Module):
    def __init__(self, ch=16):
        super().__init__()
        self.net = nn.Sequential(
            MaskedConv2d("A", 1, ch, 5, padding=2), nn.ReLU(),
            MaskedConv2d("B", ch, ch, 3, padding=1), nn.ReLU(),
            MaskedConv2d("B", ch, ch, 3, padding=1), nn.ReLU(),
            nn.Conv2d(ch, 1, 1),
        )

    def forward(self, x):
        return self.net(x)


def glyphs(n):
    img = torch.zeros(n, 1, S, S)
    kind = torch.randint(0, 3, (n,))
    img[kind == 0, :, :, 3:5] = 1
    img[kind == 1, :, 3:5, :] = 1
    eye = torch.eye(S).bool()
    img[kind == 2] = eye.float().expand(int((kind == 2).sum()), 1, S, S).clone()
    return img


data = glyphs(384)
loader = DataLoader(TensorDataset(data), batch_size=64, shuffle=True)  # paef: ok pageable-transfer
model = PixelCNN().to(device)
optimizer = torch.optim.Adam(model.parameters(), lr=3e-3)
for epoch in range(4):
    total = torch.zeros((), device=device)
    for (x,) in loader:
        x = x.to(device)
        loss = F.binary_cross_entropy_with_logits(model(x), x)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        total += loss.detach()
    print(f"epoch {epoch} bce {total.item() / len(loader):.4f}")

model.eval()
gen = torch.Generator(device=device).manual_seed(1)
with torch.no_grad():
    sample = torch.zeros(4, 1, S, S, device=device)
    for i in range(S):  # paef: refuse elementwise-loop
        for j in range(S):
            probs = torch.sigmoid(model(sample)[:, :, i, j])
            sample[:, :, i, j] = torch.bernoulli(probs, generator=gen)
print("sampled ink per glyph", sample.sum((1, 2, 3)).tolist())
