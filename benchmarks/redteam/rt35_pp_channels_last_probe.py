# corpus: runnable
# Red team 35 (blind): linear probe on a frozen CNN backbone. The backbone is switched to
# channels_last (oneDNN's fast layout on CPU); each batch's feature map is copied out of the
# backbone through a Python list and flattened for the probe.
import torch
from torch import nn
from torch.utils.data import DataLoader, TensorDataset

torch.set_num_threads(1)
USE_CHANNELS_LAST = True


class Backbone(nn.Module):
    def __init__(self):
        super().__init__()
        self.features = nn.Sequential(
            nn.Conv2d(3, 8, 3, padding=1), nn.BatchNorm2d(8), nn.ReLU(), nn.MaxPool2d(2),
            nn.Conv2d(8, 8, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
        )

    def forward(self, x):
        return self.features(x)


def make_data(n=64):
    g = torch.Generator().manual_seed(3)
    x = torch.randn(n, 3, 16, 16, generator=g)
    y = (x[:, 0].mean((1, 2)) > 0).long()
    return TensorDataset(x, y)


def main():
    torch.manual_seed(0)
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    backbone = Backbone().to(device).eval()
    if USE_CHANNELS_LAST:
        backbone.to(memory_format=torch.channels_last)
    probe = nn.Linear(8 * 4 * 4, 2).to(device)
    opt = torch.optim.SGD(probe.parameters(), lr=0.1)
    loader = DataLoader(make_data(), batch_size=16, shuffle=False)
    for epoch in range(2):
        correct = 0
        for xb, yb in loader:
            xb, yb = xb.to(device), yb.to(device)
            with torch.no_grad():
                fmap = backbone(xb)
            feats = torch.tensor(fmap.cpu().tolist()).to(device)  # paef: refuse ping-pong
            logits = probe(feats.view(feats.size(0), -1))
            loss = nn.functional.cross_entropy(logits, yb)
            opt.zero_grad()
            loss.backward()
            opt.step()
            correct += (logits.argmax(1) == yb).sum().item()
        print(f"epoch {epoch}: loss {loss.item():.6f} correct {correct}")


if __name__ == "__main__":
    main()
