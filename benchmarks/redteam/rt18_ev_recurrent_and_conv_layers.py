# corpus: runnable
# Evaluation loops over layers whose CPU kernels may take another path under no_grad than with
# grad mode on: GRU, RNN, GRUCell, LSTMCell, a bidirectional GRU with packed sequences, a big
# Conv2d, ConvTranspose2d, EmbeddingBag, and BatchNorm in train mode (running stats updated).
import torch
from torch import nn
from torch.nn.utils.rnn import pack_padded_sequence, pad_packed_sequence

torch.set_num_threads(1)
torch.manual_seed(0)
seqs = [torch.randn(3, 7, 16) for _ in range(3)]

gru = nn.GRU(16, 32, batch_first=True).eval()
out = []
for s in seqs:
    y, _ = gru(s)
    out.append(repr(y.sum().item()))
print("A GRU", out)

rnn = nn.RNN(16, 32, num_layers=2, batch_first=True).eval()
out = []
for s in seqs:
    y, _ = rnn(s)
    out.append(repr(y.sum().item()))
print("B RNN", out)

cell = nn.GRUCell(16, 32).eval()
out = []
for s in seqs:
    h = torch.zeros(3, 32)
    for t in range(s.shape[1]):
        h = cell(s[:, t], h)
    out.append(repr(h.sum().item()))
print("C GRUCell", out)

lcell = nn.LSTMCell(16, 32).eval()
out = []
for s in seqs:
    h = c = torch.zeros(3, 32)
    for t in range(s.shape[1]):
        h, c = lcell(s[:, t], (h, c))
    out.append(repr(h.sum().item()))
print("D LSTMCell", out)

bi = nn.GRU(16, 8, batch_first=True, bidirectional=True).eval()
out = []
for s in seqs:
    packed = pack_padded_sequence(s, torch.tensor([7, 5, 2]), batch_first=True)
    y, _ = bi(packed)
    y, _ = pad_packed_sequence(y, batch_first=True)
    out.append(repr(y.sum().item()))
print("E packed", out)

imgs = [torch.randn(2, 32, 24, 24) for _ in range(2)]
conv = nn.Conv2d(32, 64, 3, padding=1).eval()
deconv = nn.ConvTranspose2d(64, 8, 4, stride=2).eval()
out = []
for im in imgs:
    out.append(repr(deconv(conv(im)).sum().item()))
print("F conv", out)

bag = nn.EmbeddingBag(50, 16, mode="mean").eval()
out = []
for s in seqs:
    idx = (s[:, :, 0].abs() * 10).long() % 50
    out.append(repr(bag(idx).sum().item()))
print("G bag", out)

bn = nn.Sequential(nn.Linear(16, 16), nn.BatchNorm1d(16))
bn.train()
out = []
for s in seqs:
    out.append(repr(bn(s[:, 0]).sum().item()))
print("H bn train", out, repr(bn[1].running_mean.sum().item()))
