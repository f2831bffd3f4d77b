"""A bag-of-embeddings classifier that averages over the unpadded positions of a TokenBatch."""
import torch
import torch.nn as nn


class MeanPoolClassifier(nn.Module):
    def __init__(self, vocab, dim, classes):
        super().__init__()
        self.emb = nn.Embedding(vocab, dim)
        self.out = nn.Linear(dim, classes)

    def forward(self, batch):
        h = self.emb(batch.tokens)
        m = batch.mask.unsqueeze(-1).float()
        pooled = (h * m).sum(1) / m.sum(1).clamp(min=1.0)
        return self.out(pooled)
