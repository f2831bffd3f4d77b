# corpus: runnable
# LSTMs reached in ways the module's class is not spelled at the call: built by a factory
# function, `torch.lstm` called on the flat weights, a deep copy, a ModuleDict entry, a class
# looked up in a dict, a constructor's default argument, a module appended to a Sequential.
# Under no_grad the CPU build runs oneDNN's inference LSTM (other last bits).
import copy
import torch
from torch import nn
torch.set_num_threads(1)
torch.manual_seed(0)
xs = [torch.randn(2, 5, 3) for _ in range(3)]

def make():
    return nn.LSTM(3, 4, batch_first=True)
m = make().eval()
outs = []
for x in xs:
    y, _ = m(x)
    outs.append(repr(y.sum().item()))
print("B factory", outs)

cells = nn.LSTM(3, 4, batch_first=True)
w = cells._flat_weights
outs = []
for x in xs:
    h0 = torch.zeros(1, 2, 4)
    y = torch.lstm(x, (h0, h0), w, True, 1, 0.0, False, False, True)[0]
    outs.append(repr(y.sum().item()))
print("C torch.lstm", outs)

cp = copy.deepcopy(m).eval()
outs = []
for x in xs:
    y, _ = cp(x)
    outs.append(repr(y.sum().item()))
print("D deepcopy", outs)

mods = nn.ModuleDict({"rnn": nn.LSTM(3, 4, batch_first=True)}).eval()
outs = []
for x in xs:
    y, _ = mods["rnn"](x)
    outs.append(repr(y.sum().item()))
print("E ModuleDict", outs)

kinds = {"lstm": nn.LSTM}
r = kinds["lstm"](3, 4, batch_first=True).eval()
outs = []
for x in xs:
    y, _ = r(x)
    outs.append(repr(y.sum().item()))
print("F via dict", outs)

class Enc(nn.Module):
    def __init__(self, cell=nn.LSTM):
        super().__init__()
        self.rnn = cell(3, 4, batch_first=True)
    def forward(self, x):
        return self.rnn(x)[0]
enc = Enc().eval()
outs = []
for x in xs:
    outs.append(repr(enc(x).sum().item()))
print("G default arg class", outs)

seq = nn.Sequential(nn.Linear(3, 4)).eval()
seq.append(nn.LSTM(4, 4, batch_first=True))
outs = []
for x in xs:
    h = seq[0](x)
    y, _ = seq[1](h)
    outs.append(repr(y.sum().item()))
print("H appended", outs)
