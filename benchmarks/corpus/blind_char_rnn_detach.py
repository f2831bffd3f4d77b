# corpus: runnable
"""Word-language-model style LSTM: batchify, get_batch, repackage_hidden, manual SGD update."""
import math
import time

import torch
import torch.nn as nn

torch.manual_seed(1111)
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")

corpus_text = ("to be or not to be that is the question whether tis nobler in the mind " * 20).split()
vocab = sorted(set(corpus_text))
word2idx = {w: i for i, w in enumerate(vocab)}
ids = torch.tensor([word2idx[w] for w in corpus_text], dtype=torch.long)


def batchify(data, bsz):
    nbatch = data.size(0) // bsz
    data = data.narrow(0, 0, nbatch * bsz)
    data = data.view(bsz, -1).t().contiguous()
    return data.to(device)


class RNNModel(nn.Module):
    def __init__(self, ntoken, ninp, nhid, nlayers, dropout=0.2):
        super(RNNModel, self).__init__()
        self.ntoken = ntoken
        self.drop = nn.Dropout(dropout)
        self.encoder = nn.Embedding(ntoken, ninp)
        self.rnn = nn.LSTM(ninp, nhid, nlayers, dropout=dropout)
        self.decoder = nn.Linear(nhid, ntoken)
        self.nhid = nhid
        self.nlayers = nlayers

    def forward(self, input, hidden):
        emb = self.drop(self.encoder(input))
        output, hidden = self.rnn(emb, hidden)
        output = self.drop(output)
        decoded = self.decoder(output)
        decoded = decoded.view(-1, self.ntoken)
        return nn.functional.log_softmax(decoded, dim=1), hidden

    def init_hidden(self, bsz):
        weight = next(self.parameters())
        return (weight.new_zeros(self.nlayers, bsz, self.nhid), weight.new_zeros(self.nlayers, bsz, self.nhid))


def repackage_hidden(h):
    """Wraps hidden states in new Tensors, to detach them from their history."""
    if isinstance(h, torch.Tensor):
        return h.detach()
    else:
        return tuple(repackage_hidden(v) for v in h)


bptt = 8
train_data = batchify(ids[:200], 4)
val_data = batchify(ids[200:], 2)
model = RNNModel(len(vocab), 16, 32, 2).to(device)
criterion = nn.NLLLoss()
lr = 5.0


def get_batch(source, i):
    seq_len = min(bptt, len(source) - 1 - i)
    data = source[i : i + seq_len]
    target = source[i + 1 : i + 1 + seq_len].view(-1)
    return data, target


def evaluate(data_source, eval_batch_size):
    model.eval()
    total_loss = 0.0
    hidden = model.init_hidden(eval_batch_size)
    with torch.no_grad():
        for i in range(0, data_source.size(0) - 1, bptt):
            data, targets = get_batch(data_source, i)
            output, hidden = model(data, hidden)
            hidden = repackage_hidden(hidden)
            total_loss += len(data) * criterion(output, targets).item()  # paef: ok host-sync
    return total_loss / (len(data_source) - 1)


def train(epoch):
    model.train()
    total_loss = 0.0
    start_time = time.time()
    hidden = model.init_hidden(4)
    for batch, i in enumerate(range(0, train_data.size(0) - 1, bptt)):
        data, targets = get_batch(train_data, i)
        hidden = repackage_hidden(hidden)
        model.zero_grad()
        output, hidden = model(data, hidden)
        loss = criterion(output, targets)
        loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), 0.25)
        for p in model.parameters():
            p.data.add_(p.grad, alpha=-lr)
        total_loss += loss.item()  # paef: expect host-sync
        if batch % 3 == 0 and batch > 0:
            cur_loss = total_loss / 3
            elapsed = time.time() - start_time
            print("| epoch {:3d} | batch {:3d} | loss {:5.2f} | ppl {:8.2f}".format(epoch, batch, cur_loss, math.exp(cur_loss)))
            total_loss = 0
            start_time = time.time()
            del elapsed


for epoch in range(1, 3):
    train(epoch)
    val_loss = evaluate(val_data, 2)
    print("| end of epoch {:3d} | valid loss {:5.2f} | valid ppl {:8.2f}".format(epoch, val_loss, math.exp(val_loss)))
