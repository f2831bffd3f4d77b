# corpus: runnable
# Red team 35 probe (NOT blind: written after first contact, when the blind programs' ping-pong
# rewrites were refused for an unknown dtype). The same two sources with their dtype made known by
# `.float()`: a channels_last backbone's feature map and class centres made by `torch.broadcast_to`,
# each copied out through a Python list and then flattened with `.view`.
import torch
from torch import nn

torch.set_num_threads(1)


def main():
    torch.manual_seed(0)
    backbone = nn.Sequential(nn.Conv2d(3, 8, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2)).eval()
    backbone.to(memory_format=torch.channels_last)
    probe = nn.Linear(8 * 4 * 4, 2)
    opt = torch.optim.SGD(probe.parameters(), lr=0.1)
    x = torch.randn(16, 3, 8, 8)
    y = (x[:, 0].mean((1, 2)) > 0).long()
    centres = torch.broadcast_to(torch.randn(1, 5), (3, 5)).float()
    for epoch in range(2):
        with torch.no_grad():
            fmap = backbone(x).float()
        feats = torch.tensor(fmap.tolist())
        ref = torch.tensor(centres.tolist())
        loss = nn.functional.cross_entropy(probe(feats.view(feats.size(0), -1)), y) + 0.01 * ref.view(-1).abs().sum()
        opt.zero_grad()
        loss.backward()
        opt.step()
        print(f"epoch {epoch}: loss {loss.item():.6f}")


if __name__ == "__main__":
    main()
