# corpus: runnable
"""Word-level LSTM language model: a hidden state initialised per epoch and detached per batch."""
import math

import torch
import torch.nn as nn

torch.manual_seed(0)
device = "cuda" if torch.cuda.is_available() else "cpu"
vocab, emb, hid, layers, bptt, batch = 50, 16, 32, 2, 8, 4


class RNNModel(nn.Module):
    def __init__(self):
        super().__init__()
        self.encoder = nn.Embedding(vocab, emb)
        self.rnn = nn.LSTM(emb, hid, layers)
        self.decoder = nn.Linear(hid, vocab)

    def forward(self, inp, hidden):
        out, hidden = self.rnn(self.encoder(inp), hidden)
        return self.decoder(out), hidden

    def init_hidden(self, bsz):
        weight = next(self.parameters())
        return (weight.new_zeros(layers, bsz, hid), weight.new_zeros(layers, bsz, hid))


def repackage_hidden(h):
    if isinstance(h, torch.Tensor):
        return h.detach()
    return tuple(repackage_hidden(v) for v in h)


corpus = torch.randint(0, vocab, (400,))
train_data = corpus[: (len(corpus) // batch) * batch].view(batch, -1).t().contiguous().to(device)
model = RNNModel().to(device)
criterion = nn.CrossEntropyLoss()
optimizer = torch.optim.SGD(model.parameters(), lr=1.0)

for epoch in range(2):
    hidden = model.init_hidden(batch)
    total_loss = 0.0
    steps = 0
    for i in range(0, train_data.size(0) - 1, bptt):
        seq_len = min(bptt, train_data.size(0) - 1 - i)
        data, targets = train_data[i : i + seq_len], train_data[i + 1 : i + 1 + seq_len].reshape(-1)
        hidden = repackage_hidden(hidden)
        output, hidden = model(data, hidden)
        loss = criterion(output.view(-1, vocab), targets)
        optimizer.zero_grad()
        loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), 0.25)
        optimizer.step()
        total_loss += loss.detach()
        steps += 1
    cur = total_loss.item() / steps
    print(f"epoch {epoch} loss {cur:.4f} ppl {math.exp(cur):.2f}")
