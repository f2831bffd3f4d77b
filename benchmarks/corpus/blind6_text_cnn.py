# corpus: runnable
"""Kim-style CNN for sentence classification: a whitespace tokenizer and vocabulary built from
the training sentences, a Dataset that tokenizes and pads in __getitem__, filters of widths 3/4/5
with max-over-time pooling, and an evaluate() helper that returns accuracy and a confusion
matrix; the best model by validation accuracy is saved to a checkpoint in a temp directory."""
import os
import random
import tempfile
from collections import Counter

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, Dataset

random.seed(0)
torch.manual_seed(0)
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
MAX_LEN = 16
POS = "great wonderful loved excellent fun superb moving charming".split()
NEG = "boring awful hated dull terrible weak bland tedious".split()
FILL = "the movie was a and plot acting it film story very quite".split()


def make_sentences(n):
    out = []
    for _ in range(n):
        label = random.randint(0, 1)
        words = random.choices(FILL, k=random.randint(5, 12)) + random.choices(POS if label else NEG, k=2)
        random.shuffle(words)
        out.append((" ".join(words), label))
    return out


class Vocab:
    def __init__(self, sentences, min_freq=1):
        counts = Counter(w for s, _ in sentences for w in s.split())
        self.itos = ["<pad>", "<unk>"] + sorted(w for w, c in counts.items() if c >= min_freq)
        self.stoi = {w: i for i, w in enumerate(self.itos)}

    def encode(self, text):
        ids = [self.stoi.get(w, 1) for w in text.lower().split()][:MAX_LEN]
        return ids + [0] * (MAX_LEN - len(ids))


class SentenceDataset(Dataset):
    def __init__(self, pairs, vocab):
        self.pairs, self.vocab = pairs, vocab

    def __len__(self):
        return len(self.pairs)

    def __getitem__(self, i):
        text, label = self.pairs[i]
        return torch.tensor(self.vocab.encode(text)), torch.tensor(label)  # paef: ok sync-dataloader


class TextCNN(nn.Module):
    def __init__(self, vocab_size, dim=32, n_filters=16, widths=(3, 4, 5), n_classes=2):
        super().__init__()
        self.embedding = nn.Embedding(vocab_size, dim, padding_idx=0)
        self.convs = nn.ModuleList([nn.Conv1d(dim, n_filters, w) for w in widths])
        self.dropout = nn.Dropout(0.5)
        self.fc = nn.Linear(n_filters * len(widths), n_classes)

    def forward(self, x):
        e = self.embedding(x).transpose(1, 2)
        pooled = [F.relu(conv(e)).max(dim=2).values for conv in self.convs]
        return self.fc(self.dropout(torch.cat(pooled, 1)))


def evaluate(model, loader):
    model.eval()
    confusion = torch.zeros(2, 2, dtype=torch.long)
    for x, y in loader:  # paef: expect-fix eval-without-no-grad
        pred = model(x.to(device)).argmax(1).cpu()  # paef: ok host-sync
        for t, p in zip(y.tolist(), pred.tolist()):  # paef: ok elementwise-loop; ok host-sync
            confusion[t, p] += 1
    return confusion.diag().sum().item() / confusion.sum().item(), confusion


train_pairs, val_pairs = make_sentences(600), make_sentences(150)
vocab = Vocab(train_pairs)
train_loader = DataLoader(SentenceDataset(train_pairs, vocab), batch_size=32, shuffle=True)  # paef: ok pageable-transfer; expect sync-dataloader
val_loader = DataLoader(SentenceDataset(val_pairs, vocab), batch_size=64)  # paef: ok pageable-transfer; ok sync-dataloader
model = TextCNN(len(vocab.itos)).to(device)
optimizer = torch.optim.Adadelta(model.parameters(), lr=1.0)
ckpt = os.path.join(tempfile.mkdtemp(), "best.pt")
best_acc = 0.0
for epoch in range(4):
    model.train()
    for x, y in train_loader:
        x, y = x.to(device), y.to(device)
        loss = F.cross_entropy(model(x), y)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    acc, confusion = evaluate(model, val_loader)
    if acc > best_acc:
        best_acc = acc
        torch.save(model.state_dict(), ckpt)
    print(f"epoch {epoch} loss {loss.item():.4f} val acc {acc:.3f} confusion {confusion.tolist()}")
model.load_state_dict(torch.load(ckpt))
print(f"best val acc {best_acc:.3f}")
