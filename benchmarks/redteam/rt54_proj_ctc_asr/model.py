"""A bidirectional GRU acoustic model emitting per-frame log-probs (blank = 0)."""
import torch.nn as nn
import torch.nn.functional as F
from torch.nn.utils.rnn import pack_padded_sequence, pad_packed_sequence


class Acoustic(nn.Module):
    def __init__(self, dim, vocab):
        super().__init__()
        self.rnn = nn.GRU(dim, 20, batch_first=True, bidirectional=True)
        self.proj = nn.Linear(40, vocab)

    def forward(self, x, in_lens):
        packed = pack_padded_sequence(x, in_lens, batch_first=True, enforce_sorted=False)
        h, _ = self.rnn(packed)
        h, _ = pad_packed_sequence(h, batch_first=True, total_length=x.shape[1])
        return F.log_softmax(self.proj(h), -1)
