"""A tiny HF-shaped sequence classifier: keyword inputs, a ModelOutput-like result with .loss."""
from dataclasses import dataclass
from typing import Optional

import torch
import torch.nn as nn
import torch.nn.functional as F


@dataclass
class SequenceClassifierOutput:
    loss: Optional[torch.Tensor]
    logits: torch.Tensor
    embeds: torch.Tensor


class TinyBert(nn.Module):
    def __init__(self, vocab, dim, n_labels):
        super().__init__()
        self.embed = nn.Embedding(vocab, dim)
        self.mix = nn.Linear(dim, dim)
        self.head = nn.Linear(dim, n_labels)

    def forward(self, input_ids, attention_mask, labels=None):
        embeds = self.embed(input_ids)
        h = torch.tanh(self.mix(embeds)) * attention_mask.unsqueeze(-1)
        pooled = h.sum(1) / attention_mask.sum(1, keepdim=True)
        logits = self.head(pooled)
        loss = F.cross_entropy(logits, labels) if labels is not None else None
        return SequenceClassifierOutput(loss=loss, logits=logits, embeds=embeds)
