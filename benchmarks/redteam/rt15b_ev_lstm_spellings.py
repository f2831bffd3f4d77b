# corpus: runnable
# Evaluation loops through LSTMs built in other spellings: a program subclass of `nn.LSTM`, an
# imported alias (`from torch.nn import LSTM as Recurrent`), `getattr(nn, "LSTM")`, and
# `nn.modules.rnn.LSTM`; each checksum is printed at full precision.
import torch
import torch.nn as nn
from torch.nn import LSTM as Recurrent

torch.manual_seed(0)
torch.set_num_threads(1)


class Encoder(nn.LSTM):
    def forward(self, x):
        out, _ = super().forward(x)
        return out


enc = Encoder(6, 6, batch_first=True).eval()
rec = Recurrent(6, 6, batch_first=True).eval()
dyn = getattr(nn, "LSTM")(6, 6, batch_first=True).eval()
mod = nn.modules.rnn.LSTM(6, 6, batch_first=True).eval()
batches = [torch.randn(2, 4, 6) for _ in range(2)]
a = []
for xb in batches:
    a.append(repr(enc(xb).sum().item()))
b = []
for xb in batches:
    b.append(repr(rec(xb)[0].sum().item()))
c = []
for xb in batches:
    c.append(repr(dyn(xb)[0].sum().item()))
d = []
for xb in batches:
    d.append(repr(mod(xb)[0].sum().item()))
print(a, b, c, d)
