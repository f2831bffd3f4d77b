# corpus: runnable
# Red team 57 (blind): text classification bookkeeping. A vocabulary built once (text.py) encodes each
# batch in Python into padded id lists made into tensors per batch (with the lengths), a bag-of-embeddings
# model masks the padding, a progress bar gets a postfix dict with the running loss and the learning rate,
# a history of (loss, accuracy) pairs is appended per batch and summarised at the end, and the loss of the
# last batch of each epoch is kept as a tensor for a comparison across epochs.
import torch
import torch.nn as nn
import torch.nn.functional as F

from bar import Bar
from text import Vocab, corpus

torch.manual_seed(5708)
torch.set_num_threads(1)
device = 'cuda' if torch.cuda.is_available() else 'cpu'

data = corpus(160, 578)
train, test = data[:128], data[128:]
vocab = Vocab([t for t, _ in train])


class BagModel(nn.Module):
    def __init__(self, n, d=12):
        super().__init__()
        self.emb = nn.Embedding(n, d, padding_idx=0)
        self.out = nn.Linear(d, 2)

    def forward(self, ids, lengths):
        mask = (ids != 0).unsqueeze(-1).float()
        pooled = (self.emb(ids) * mask).sum(1) / lengths.unsqueeze(1).float()
        return self.out(pooled)


model = BagModel(len(vocab)).to(device)
opt = torch.optim.Adam(model.parameters(), lr=0.05)
sched = torch.optim.lr_scheduler.ExponentialLR(opt, 0.8)
history, last_losses = [], []
for epoch in range(4):
    bar = Bar(8)
    running = 0.0
    for b in range(8):
        chunk = train[b * 16:(b + 1) * 16]
        ids, lengths = vocab.encode_batch([t for t, _ in chunk])
        ids = torch.tensor(ids).to(device)
        lengths = torch.tensor(lengths).to(device)
        y = torch.tensor([l for _, l in chunk]).to(device)
        logits = model(ids, lengths)
        loss = F.cross_entropy(logits, y)
        opt.zero_grad()
        loss.backward()
        opt.step()
        running += loss.item()
        acc = (logits.argmax(1) == y).float().mean().item()
        history.append((loss.item(), acc))
        bar.set_postfix(loss=running / (b + 1), lr=sched.get_last_lr()[0], acc=acc)
        bar.update()
    last_losses.append(loss.detach())
    sched.step()

ids, lengths = vocab.encode_batch([t for t, _ in test])
with torch.no_grad():
    pred = model(torch.tensor(ids).to(device), torch.tensor(lengths).to(device)).argmax(1).cpu()
test_acc = (pred == torch.tensor([l for _, l in test])).float().mean().item()
losses = torch.tensor([h[0] for h in history])
trend = torch.stack(last_losses)
print('vocab', len(vocab), 'test acc', round(test_acc, 6), 'improving', bool((trend[1:] < trend[:-1]).all()))
print(f'loss first {losses[:8].mean().item():.7f} last {losses[-8:].mean().item():.7f}')
print('checksum', round(losses.sum().item() + sum(a for _, a in history) + trend.sum().item() + test_acc, 6))
