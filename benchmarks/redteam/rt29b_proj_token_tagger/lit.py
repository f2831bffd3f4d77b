"""A Lightning-shaped token tagger on top of pretrained word vectors (fine-tuned)."""
import torch.nn as nn
import torch.nn.functional as F

IGNORE = -100


class TaggerModule(nn.Module):
    def __init__(self, vectors, n_tags):
        super().__init__()
        self.emb = nn.Embedding.from_pretrained(vectors, freeze=False)
        self.rnn = nn.GRU(vectors.shape[1], 8, batch_first=True)
        self.out = nn.Linear(8, n_tags)

    def forward(self, tokens):
        h, _ = self.rnn(self.emb(tokens))
        return self.out(h)

    def training_step(self, batch, batch_idx):
        tokens, tags = batch
        if (tags != IGNORE).sum() == 0:
            return 0.0  # nothing labelled in this batch: skip it
        logits = self(tokens)
        return F.cross_entropy(logits.flatten(0, 1), tags.flatten(), ignore_index=IGNORE)

    def configure_optimizers(self):
        return torch_optim(self.parameters())


def torch_optim(params):
    import torch
    return torch.optim.Adam(params, lr=0.02)
