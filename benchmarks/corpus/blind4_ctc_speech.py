# corpus: runnable
"""Character CTC recognition on synthetic "utterances" (each symbol is a burst of a feature
pattern of random length): a collate that pads features and targets and keeps the lengths on
the CPU as CTCLoss wants them, a BiGRU acoustic model, greedy CTC decoding and a character
error rate computed with an edit distance in evaluation."""
import random

import numpy as np
import torch
import torch.nn as nn
from torch.nn.utils.rnn import pad_sequence
from torch.utils.data import DataLoader, Dataset

random.seed(0)
np.random.seed(0)
torch.manual_seed(0)
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
VOCAB = "_abcde"  # index 0 is the CTC blank
N_FEATS = 12
PATTERNS = np.random.RandomState(1).randn(len(VOCAB), N_FEATS).astype(np.float32)


class SyntheticSpeech(Dataset):
    def __init__(self, n):
        self.items = []
        for _ in range(n):
            text = [random.randint(1, len(VOCAB) - 1) for _ in range(random.randint(2, 5))]
            frames = []
            for c in text:
                frames += [PATTERNS[c] + 0.3 * np.random.randn(N_FEATS)] * random.randint(2, 4)
                frames += [0.3 * np.random.randn(N_FEATS)]
            self.items.append((np.stack(frames).astype(np.float32), text))

    def __len__(self):
        return len(self.items)

    def __getitem__(self, i):
        feats, text = self.items[i]
        return torch.from_numpy(feats), torch.tensor(text, dtype=torch.long)


def pad_collate(batch):
    feats, targets = zip(*batch)
    input_lengths = torch.tensor([f.shape[0] for f in feats], dtype=torch.long)
    target_lengths = torch.tensor([t.shape[0] for t in targets], dtype=torch.long)
    return pad_sequence(feats, batch_first=True), pad_sequence(targets, batch_first=True), input_lengths, target_lengths


class AcousticModel(nn.Module):
    def __init__(self, hidden=48):
        super().__init__()
        self.rnn = nn.GRU(N_FEATS, hidden, batch_first=True, bidirectional=True)
        self.out = nn.Linear(2 * hidden, len(VOCAB))

    def forward(self, x):
        h, _ = self.rnn(x)
        return self.out(h).log_softmax(-1)


def edit_distance(a, b):
    d = list(range(len(b) + 1))
    for i in range(1, len(a) + 1):
        prev, d[0] = d[0], i
        for j in range(1, len(b) + 1):
            prev, d[j] = d[j], min(d[j] + 1, d[j - 1] + 1, prev + (a[i - 1] != b[j - 1]))
    return d[len(b)]


def greedy_decode(log_probs, lengths):
    best = log_probs.argmax(-1).cpu()  # paef: ok host-sync
    out = []
    for b in range(best.shape[0]):
        seq, prev = [], 0
        for t in best[b, : lengths[b]].tolist():
            if t != prev and t != 0:
                seq.append(t)
            prev = t
        out.append(seq)
    return out


train_loader = DataLoader(SyntheticSpeech(160), batch_size=16, shuffle=True, collate_fn=pad_collate)  # paef: ok pageable-transfer; ok sync-dataloader
val_loader = DataLoader(SyntheticSpeech(48), batch_size=16, collate_fn=pad_collate)  # paef: ok pageable-transfer; ok sync-dataloader
model = AcousticModel().to(device)
ctc = nn.CTCLoss(blank=0, zero_infinity=True)
optimizer = torch.optim.Adam(model.parameters(), lr=3e-3)

for epoch in range(4):
    model.train()
    total = 0.0
    for feats, targets, in_lens, tgt_lens in train_loader:
        feats, targets = feats.to(device), targets.to(device)
        log_probs = model(feats).transpose(0, 1)
        loss = ctc(log_probs, targets, in_lens, tgt_lens)
        optimizer.zero_grad()
        loss.backward()
        nn.utils.clip_grad_norm_(model.parameters(), 5.0)
        optimizer.step()
        total += loss.item()  # paef: expect host-sync
    model.eval()
    errors, chars = 0, 0
    with torch.no_grad():
        for feats, targets, in_lens, tgt_lens in val_loader:
            hyps = greedy_decode(model(feats.to(device)), in_lens)
            for hyp, tgt, n in zip(hyps, targets.tolist(), tgt_lens.tolist()):
                errors += edit_distance(hyp, tgt[:n])
                chars += n
    print(f"epoch {epoch} ctc {total / len(train_loader):.4f} cer {errors / chars:.4f}")
