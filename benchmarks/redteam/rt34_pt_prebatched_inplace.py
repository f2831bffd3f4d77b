# corpus: runnable
# Red team 34 (blind): the data set is stored pre-batched (one tensor per batch, `batch_size=None`),
# so the loader hands out the stored tensors themselves. The training loop rescales raw pixel values
# in place before copying the batch to the device (an in-place `div_` to save a host allocation).
import torch
import torch.nn.functional as F
from torch import nn
from torch.utils.data import DataLoader, Dataset

torch.set_num_threads(1)


class PreBatched(Dataset):
    def __init__(self, n_batches, bs):
        g = torch.Generator().manual_seed(1)
        self.x = [torch.randint(0, 256, (bs, 12), generator=g).float() for _ in range(n_batches)]
        self.y = [(b[:, :6].sum(1) > b[:, 6:].sum(1)).long() for b in self.x]

    def __len__(self):
        return len(self.x)

    def __getitem__(self, i):
        return self.x[i], self.y[i]


def main():
    torch.manual_seed(0)
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    ds = PreBatched(6, 16)
    loader = DataLoader(ds, batch_size=None, shuffle=False)
    model = nn.Sequential(nn.Linear(12, 16), nn.ReLU(), nn.Linear(16, 2)).to(device)
    opt = torch.optim.SGD(model.parameters(), lr=0.5)
    for epoch in range(3):
        total = 0.0
        for xb, yb in loader:
            xb.div_(255.0)
            xb = xb.to(device)
            yb = yb.to(device)
            loss = F.cross_entropy(model(xb), yb)
            opt.zero_grad()
            loss.backward()
            opt.step()
            total += loss.item()
        print(f"epoch {epoch} mean loss {total / len(ds):.5f}")
    print(f"stored batch 0 max value {ds.x[0].max().item():.6g}")


if __name__ == "__main__":
    main()
