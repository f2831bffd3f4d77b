# corpus: runnable
# Red team 35 (blind): classifier calibration. After training, the evaluation pass bins every
# prediction by its confidence (10 bins, as for the expected calibration error) and sums the
# confidences and hits per bin with torch.bincount; the per-bin tables are printed.
import torch
from torch import nn
from torch.utils.data import DataLoader, TensorDataset

torch.set_num_threads(1)
N_BINS = 10


def make_loaders():
    g = torch.Generator().manual_seed(2)
    x = torch.randn(160, 8, generator=g)
    y = ((x[:, 0] + 0.5 * x[:, 1]) > 0).long() + (x[:, 2] > 1).long()
    train = DataLoader(TensorDataset(x[:120], y[:120]), batch_size=24, shuffle=True)
    test = DataLoader(TensorDataset(x[120:], y[120:]), batch_size=20)
    return train, test


def calibration(model, loader):
    model.eval()
    conf_sum = torch.zeros(N_BINS)
    hits = torch.zeros(N_BINS)
    counts = torch.zeros(N_BINS, dtype=torch.long)
    for xb, yb in loader:  # paef: refuse eval-without-no-grad
        probs = model(xb).softmax(1)
        conf, pred = probs.max(1)
        bins = (conf * N_BINS).long().clamp(max=N_BINS - 1)
        conf_sum += torch.bincount(bins, weights=conf, minlength=N_BINS)
        hits += torch.bincount(bins, weights=(pred == yb).float(), minlength=N_BINS)
        counts += torch.bincount(bins, minlength=N_BINS)
    return conf_sum, hits, counts


def main():
    torch.manual_seed(0)
    model = nn.Sequential(nn.Linear(8, 32), nn.ReLU(), nn.Linear(32, 3))
    opt = torch.optim.Adam(model.parameters(), lr=0.01)
    train, test = make_loaders()
    for epoch in range(4):
        model.train()
        for xb, yb in train:
            loss = nn.functional.cross_entropy(model(xb), yb)
            opt.zero_grad()
            loss.backward()
            opt.step()
        print(f"epoch {epoch}: loss {loss.item():.6f}")
    conf_sum, hits, counts = calibration(model, test)
    print("confidence per bin", conf_sum)
    print("hits per bin", hits)
    print("count per bin", counts.tolist())
    seen = counts > 0
    ece = ((conf_sum[seen] - hits[seen]).abs().sum() / counts.sum()).item()
    print(f"ECE {ece:.6f}")


if __name__ == "__main__":
    main()
