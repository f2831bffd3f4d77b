# corpus: runnable
"""Word-level LSTM language model after the classic example: batchify into columns,
truncated BPTT with repackage_hidden, manual SGD update over parameters, gradient clipping,
learning-rate annealing on validation perplexity."""
import math

import torch
import torch.nn as nn

torch.manual_seed(0)
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")

words = ("the cat sat on the mat and the dog sat on the log while the bird sang " * 30).split()
vocab = {w: i for i, w in enumerate(sorted(set(words)))}
ids = torch.tensor([vocab[w] for w in words], dtype=torch.long)
train_ids, val_ids = ids[: int(0.8 * len(ids))], ids[int(0.8 * len(ids)):]


def batchify(data, bsz):
    nbatch = data.size(0) // bsz
    data = data.narrow(0, 0, nbatch * bsz)
    return data.view(bsz, -1).t().contiguous().to(device)


class RNNModel(nn.Module):
    def __init__(self, ntoken, ninp=32, nhid=32, nlayers=1):
        super().__init__()
        self.encoder = nn.Embedding(ntoken, ninp)
        self.rnn = nn.LSTM(ninp, nhid, nlayers)
        self.decoder = nn.Linear(nhid, ntoken)
        self.nhid, self.nlayers = nhid, nlayers

    def forward(self, input, hidden):
        output, hidden = self.rnn(self.encoder(input), hidden)
        return self.decoder(output).view(-1, self.decoder.out_features), hidden

    def init_hidden(self, bsz):
        weight = next(self.parameters())
        return (weight.new_zeros(self.nlayers, bsz, self.nhid), weight.new_zeros(self.nlayers, bsz, self.nhid))


def repackage_hidden(h):
    if isinstance(h, torch.Tensor):
        return h.detach()
    return tuple(repackage_hidden(v) for v in h)


def get_batch(source, i, bptt=8):
    seq_len = min(bptt, len(source) - 1 - i)
    return source[i:i + seq_len], source[i + 1:i + 1 + seq_len].view(-1)


train_data, val_data = batchify(train_ids, 8), batchify(val_ids, 4)
model = RNNModel(len(vocab)).to(device)
criterion = nn.NLLLoss()
lr, clip, bptt = 2.0, 0.25, 8


def evaluate(data_source, bsz):
    model.eval()
    total_loss = 0.0
    hidden = model.init_hidden(bsz)
    with torch.no_grad():
        for i in range(0, data_source.size(0) - 1, bptt):
            data, targets = get_batch(data_source, i)
            output, hidden = model(data, hidden)
            hidden = repackage_hidden(hidden)
            total_loss += len(data) * criterion(torch.log_softmax(output, -1), targets).item()  # paef: ok host-sync
    return total_loss / (len(data_source) - 1)


best_val = None
for epoch in range(1, 4):
    model.train()
    total_loss = 0.0
    hidden = model.init_hidden(8)
    for batch, i in enumerate(range(0, train_data.size(0) - 1, bptt)):
        data, targets = get_batch(train_data, i)
        hidden = repackage_hidden(hidden)
        model.zero_grad()
        output, hidden = model(data, hidden)
        loss = criterion(torch.log_softmax(output, -1), targets)
        loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), clip)
        for p in model.parameters():
            p.data.add_(p.grad, alpha=-lr)
        total_loss += loss.item()  # paef: expect host-sync
    val_loss = evaluate(val_data, 4)
    print(f"| epoch {epoch} | train loss {total_loss / (batch + 1):.3f} | valid ppl {math.exp(val_loss):8.2f}")
    if not best_val or val_loss < best_val:
        best_val = val_loss
    else:
        lr /= 4.0
