# corpus: runnable
"""Text classification with a custom bucketing batch sampler (sentences of similar length
batched together, buckets shuffled with a seeded generator each epoch), a padding collate,
packed sequences (the lengths stay on the CPU, as pack_padded_sequence wants), accuracy
counted per batch."""
import random

import torch
import torch.nn as nn
from torch.nn.utils.rnn import pack_padded_sequence, pad_sequence
from torch.utils.data import DataLoader, Dataset, Sampler

random.seed(0)
torch.manual_seed(0)
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
V = 50


class SentenceDataset(Dataset):
    def __init__(self, n):
        self.data = []
        for _ in range(n):
            L = random.randint(3, 30)
            toks = [random.randint(2, V - 1) for _ in range(L)]
            self.data.append((toks, int(sum(t % 2 for t in toks) > L / 2)))

    def __len__(self):
        return len(self.data)

    def __getitem__(self, i):
        toks, y = self.data[i]
        return torch.tensor(toks), y


class BucketBatchSampler(Sampler):
    def __init__(self, lengths, batch_size, seed=0):
        self.order = sorted(range(len(lengths)), key=lambda i: lengths[i])
        self.batch_size = batch_size
        self.generator = torch.Generator().manual_seed(seed)

    def __iter__(self):
        batches = [self.order[i:i + self.batch_size] for i in range(0, len(self.order), self.batch_size)]
        for j in torch.randperm(len(batches), generator=self.generator).tolist():
            yield batches[j]

    def __len__(self):
        return (len(self.order) + self.batch_size - 1) // self.batch_size


def pad_collate(batch):
    seqs, labels = zip(*batch)
    lengths = torch.tensor([len(s) for s in seqs])
    return pad_sequence(seqs, batch_first=True), lengths, torch.tensor(labels)


class LSTMClassifier(nn.Module):
    def __init__(self):
        super().__init__()
        self.emb = nn.Embedding(V, 32, padding_idx=0)
        self.lstm = nn.LSTM(32, 32, batch_first=True)
        self.fc = nn.Linear(32, 2)

    def forward(self, x, lengths):
        packed = pack_padded_sequence(self.emb(x), lengths.cpu(), batch_first=True, enforce_sorted=False)
        _, (h, _) = self.lstm(packed)
        return self.fc(h[-1])


train_ds, val_ds = SentenceDataset(480), SentenceDataset(120)
train_loader = DataLoader(train_ds, batch_sampler=BucketBatchSampler([len(t) for t, _ in train_ds.data], 32), collate_fn=pad_collate)  # paef: ok pageable-transfer; ok sync-dataloader
val_loader = DataLoader(val_ds, batch_size=60, collate_fn=pad_collate)  # paef: ok pageable-transfer; ok sync-dataloader
model = LSTMClassifier().to(device)
optimizer = torch.optim.Adam(model.parameters(), lr=5e-3)
criterion = nn.CrossEntropyLoss()
for epoch in range(4):
    model.train()
    n_correct, n_seen = 0, 0
    for x, lengths, y in train_loader:
        x, y = x.to(device), y.to(device)
        logits = model(x, lengths)
        loss = criterion(logits, y)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        n_correct += (logits.argmax(1) == y).sum().item()  # paef: expect host-sync
        n_seen += len(y)
    model.eval()
    with torch.no_grad():
        val_correct = sum((model(x.to(device), lengths).argmax(1).cpu() == y).sum() for x, lengths, y in val_loader)  # paef: ok host-sync
    print(f"epoch {epoch} train acc {n_correct / n_seen:.3f} val acc {int(val_correct) / len(val_ds):.3f}")
