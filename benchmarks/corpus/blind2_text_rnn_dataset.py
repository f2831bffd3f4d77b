# corpus: runnable
"""Text classification with a packed LSTM: tokenisation in __getitem__ every epoch, lengths kept on the CPU for packing."""
import random

import torch
import torch.nn as nn
from torch.nn.utils.rnn import pack_padded_sequence, pad_sequence
from torch.utils.data import DataLoader, Dataset

random.seed(0)
torch.manual_seed(0)
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
POS = ["love", "great", "superb", "fun"]
NEG = ["hate", "dull", "awful", "slow"]
FILL = ["the", "film", "was", "really", "a", "plot", "and", "cast"]
vocab = {w: i + 1 for i, w in enumerate(POS + NEG + FILL)}


def simple_tokenize(text):
    return [t.strip(".,!?") for t in text.lower().split()]


class ReviewDataset(Dataset):
    def __init__(self, n):
        self.samples = []
        for _ in range(n):
            label = random.randint(0, 1)
            words = random.choices(FILL, k=random.randint(3, 9)) + [random.choice(POS if label else NEG)]
            random.shuffle(words)
            self.samples.append((" ".join(words).capitalize() + "!", label))

    def __len__(self):
        return len(self.samples)

    def __getitem__(self, i):
        text, label = self.samples[i]
        ids = [vocab.get(tok, 0) for tok in simple_tokenize(text)]  # paef: expect cpu-function
        return torch.tensor(ids), label


def collate_batch(batch):
    seqs, labels = zip(*batch)
    lengths = torch.tensor([len(s) for s in seqs])
    return pad_sequence(seqs, batch_first=True), lengths, torch.tensor(labels)


class LSTMClassifier(nn.Module):
    def __init__(self):
        super().__init__()
        self.emb = nn.Embedding(len(vocab) + 1, 16, padding_idx=0)
        self.lstm = nn.LSTM(16, 16, batch_first=True)
        self.fc = nn.Linear(16, 2)

    def forward(self, x, lengths):
        packed = pack_padded_sequence(self.emb(x), lengths.cpu(), batch_first=True, enforce_sorted=False)  # paef: ok host-sync
        _, (h, _) = self.lstm(packed)
        return self.fc(h[-1])


train_loader = DataLoader(ReviewDataset(256), batch_size=32, shuffle=True, collate_fn=collate_batch)  # paef: expect sync-dataloader; ok pageable-transfer
val_loader = DataLoader(ReviewDataset(64), batch_size=64, collate_fn=collate_batch)  # paef: ok sync-dataloader; ok pageable-transfer
model = LSTMClassifier().to(device)
opt = torch.optim.Adam(model.parameters(), lr=1e-2)
for epoch in range(4):
    model.train()
    for x, lengths, y in train_loader:
        logits = model(x.to(device), lengths)
        loss = nn.functional.cross_entropy(logits, y.to(device))
        opt.zero_grad()
        loss.backward()
        opt.step()
    model.eval()
    correct = 0
    with torch.no_grad():
        for x, lengths, y in val_loader:
            correct += (model(x.to(device), lengths).argmax(1).cpu() == y).sum().item()  # paef: ok host-sync
    print(f"epoch {epoch} val acc {correct / len(val_loader.dataset):.4f}")
