"""Token-classification data: a vocabulary, a Dataset over pre-tokenised sentences, a padding collate."""
import torch
from torch.utils.data import Dataset

PAD = 0


def build_vocab(sentences):
    vocab = {"<pad>": PAD, "<unk>": 1}
    for sent in sentences:
        for tok in sent:
            vocab.setdefault(tok, len(vocab))
    return vocab


class TaggingDataset(Dataset):
    def __init__(self, sentences, tags, vocab, tag2id):
        self.examples = [
            (torch.tensor([vocab.get(t, 1) for t in sent]), torch.tensor([tag2id[t] for t in tag_seq]))
            for sent, tag_seq in zip(sentences, tags)
        ]

    def __len__(self):
        return len(self.examples)

    def __getitem__(self, idx):
        return self.examples[idx]


def pad_collate(batch):
    tokens, tags = zip(*batch)
    max_len = max(len(t) for t in tokens)
    tok = torch.full((len(batch), max_len), PAD, dtype=torch.long)
    tag = torch.full((len(batch), max_len), -100, dtype=torch.long)
    for i, (t, g) in enumerate(zip(tokens, tags)):  # paef: ok elementwise-loop
        tok[i, : len(t)] = t
        tag[i, : len(g)] = g
    return tok, tag
