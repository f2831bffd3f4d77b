# corpus: runnable
# Evaluation loops of sequence models built from `nn.LSTM` (one layer, stacked, bidirectional):
# under no_grad in eval mode PyTorch's CPU build runs a different LSTM kernel whose outputs differ
# in the last bits, which a printed checksum at full precision shows.
import torch
import torch.nn as nn

torch.manual_seed(0)
torch.set_num_threads(1)


class Tagger(nn.Module):
    def __init__(self):
        super().__init__()
        self.rnn = nn.LSTM(8, 16, batch_first=True)
        self.head = nn.Linear(16, 4)

    def forward(self, x):
        h, _ = self.rnn(x)
        return self.head(h)


tagger = Tagger().eval()
batches = [torch.randn(2, 5, 8) for _ in range(3)]
sums = []
for xb in batches:
    out = tagger(xb)
    sums.append(out.sum().item())
print("tagger", [repr(s) for s in sums])

stack = nn.LSTM(8, 8, num_layers=2, bidirectional=True).eval()
scores = []
for xb in batches:
    y, (h, c) = stack(xb.transpose(0, 1))
    scores.append(repr(y.double().sum().item()))
print("stacked", scores)
