"""The batch type of the pipeline: a frozen dataclass with tensor fields, its own `pin_memory()` (the
DataLoader calls it when pinning) and `to()`, indexing by field name, a padding mask built on each access
and a token count computed once."""
import dataclasses
import functools

import torch


@dataclasses.dataclass(frozen=True)
class TokenBatch:
    tokens: torch.Tensor
    lengths: torch.Tensor
    labels: torch.Tensor
    meta: dict = dataclasses.field(default_factory=dict)

    def __getitem__(self, name):
        return getattr(self, name)

    @property
    def mask(self):
        steps = torch.arange(self.tokens.size(1), device=self.tokens.device)
        return steps.unsqueeze(0) < self.lengths.unsqueeze(1)

    @functools.cached_property
    def n_tokens(self):
        return int(self.lengths.sum())

    def pin_memory(self):
        meta = dict(self.meta)
        meta["pinned"] = meta.get("pinned", 0) + 1
        return TokenBatch(self.tokens.pin_memory(), self.lengths.pin_memory(), self.labels.pin_memory(), meta)

    def to(self, device, non_blocking=False):
        return dataclasses.replace(
            self,
            tokens=self.tokens.to(device, non_blocking=non_blocking),
            lengths=self.lengths.to(device, non_blocking=non_blocking),
            labels=self.labels.to(device, non_blocking=non_blocking),
        )


def collate(items):
    longest = max(len(seq) for seq, _ in items)
    tokens = torch.zeros(len(items), longest, dtype=torch.long)
    for row, (seq, _) in enumerate(items):
        tokens[row, :len(seq)] = torch.tensor(seq)
    lengths = torch.tensor([len(seq) for seq, _ in items])
    labels = torch.tensor([lab for _, lab in items])
    return TokenBatch(tokens, lengths, labels, {"source": "train"})
