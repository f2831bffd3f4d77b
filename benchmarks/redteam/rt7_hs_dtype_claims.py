# corpus: runnable
# Running sums of `.item()` values whose dtype is easy to misread: one-hot counts, a module that
# returns class indices, floor division with `rounding_mode`, `torch.where` over floats, `torch.add`
# of a float to integer counts, complex spectra, int32 sums, float16 and bfloat16 maxima.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_num_threads(1)
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
labels = [torch.randint(0, 3, (7,)) for _ in range(4)]
feats = [torch.randn(7, 5) for _ in range(4)]


class Predictor(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(5, 3)

    def forward(self, x):
        return self.fc(x).argmax(dim=1)


pred = Predictor().to(device)

hot = 0
for y in labels:
    hot += F.one_hot(y.to(device), 3)[:, 0].sum().item()
print("one-hot count", hot)

votes = 0
for x in feats:
    votes += pred(x.to(device)).sum().item()
print("module indices", votes)

halves = 0
for y in labels:
    halves += torch.div(y.to(device), 2, rounding_mode="floor").sum().item()
print("floor div", halves)

masked = 0
for x in feats:
    xd = x.to(device)
    masked += torch.where(xd > 0, xd, 0.0).sum().item()
print("where sum %.17g" % masked)

shifted = 0
for y in labels:
    shifted += torch.add(y.to(device), 0.25).sum().item()
print("add float", shifted)

spectral = 0.0
for x in feats:
    spectral += torch.fft.fft(x.to(device)).mean().item()
print("complex", spectral)

small = 0
for y in labels:
    small += y.to(device).to(torch.int32).sum().item()
print("int32", small)

peak16 = 0.0
for x in feats:
    peak16 += x.to(device).half().max().item()
print("half %.17g" % peak16)

flags = 0
for y in labels:
    flags += (y.to(device) == 2).any().item()
print("any", flags)
