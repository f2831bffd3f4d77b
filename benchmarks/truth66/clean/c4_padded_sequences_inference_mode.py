"""A GRU tagger on variable-length sequences: a Dataset of stored tensors, a collate_fn that
pads with pad_sequence, masked loss, StepLR per epoch, evaluation under inference_mode."""
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.nn.utils.rnn import pad_sequence
from torch.utils.data import DataLoader, Dataset


class TaggedSequences(Dataset):
    def __init__(self, n, vocab, tags, seed=0):
        g = torch.Generator().manual_seed(seed)
        lengths = torch.randint(5, 40, (n,), generator=g).tolist()
        self.tokens = [torch.randint(1, vocab, (L,), generator=g) for L in lengths]
        self.tags = [t % tags for t in self.tokens]

    def __len__(self):
        return len(self.tokens)

    def __getitem__(self, i):
        return self.tokens[i], self.tags[i]


def pad_batch(batch):
    tokens, tags = zip(*batch)
    return pad_sequence(tokens, batch_first=True), pad_sequence(tags, batch_first=True, padding_value=-100)


class Tagger(nn.Module):
    def __init__(self, vocab, tags, dim=48):
        super().__init__()
        self.emb = nn.Embedding(vocab, dim, padding_idx=0)
        self.rnn = nn.GRU(dim, dim, batch_first=True)
        self.out = nn.Linear(dim, tags)

    def forward(self, tokens):
        h, _ = self.rnn(self.emb(tokens))
        return self.out(h)


torch.manual_seed(0)
train = DataLoader(TaggedSequences(1024, 100, 7), batch_size=32, shuffle=True, collate_fn=pad_batch)
test = DataLoader(TaggedSequences(256, 100, 7, seed=1), batch_size=64, collate_fn=pad_batch)
model = Tagger(100, 7)
opt = torch.optim.Adam(model.parameters(), lr=3e-3)
sched = torch.optim.lr_scheduler.StepLR(opt, step_size=1, gamma=0.7)
for epoch in range(2):
    model.train()
    for tokens, tags in train:
        logits = model(tokens)
        loss = F.cross_entropy(logits.reshape(-1, 7), tags.reshape(-1), ignore_index=-100)
        opt.zero_grad()
        loss.backward()
        opt.step()
    sched.step()
    model.eval()
    hits, total = torch.zeros((), dtype=torch.long), torch.zeros((), dtype=torch.long)
    with torch.inference_mode():
        for tokens, tags in test:
            mask = tags != -100
            hits += ((model(tokens).argmax(-1) == tags) & mask).sum()
            total += mask.sum()
    print(f"epoch {epoch} tag accuracy {hits.item() / total.item():.3f}")
