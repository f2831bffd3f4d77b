# corpus: runnable
"""HF-style fine-tuning loop: dict batches from a collate function, model(**batch) returns .loss."""
from dataclasses import dataclass
import random

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, Dataset

random.seed(0)
torch.manual_seed(0)
device = "cuda" if torch.cuda.is_available() else "cpu"
VOCAB, PAD = 60, 0


class TextDataset(Dataset):
    def __init__(self, n):
        self.examples = [([random.randrange(1, VOCAB) for _ in range(random.randint(3, 12))], random.randrange(2)) for _ in range(n)]

    def __len__(self):
        return len(self.examples)

    def __getitem__(self, i):
        ids, label = self.examples[i]
        return {"input_ids": ids, "label": label}


def collate(features):
    longest = max(len(f["input_ids"]) for f in features)
    input_ids = torch.full((len(features), longest), PAD, dtype=torch.long)
    for row, f in enumerate(features):
        input_ids[row, : len(f["input_ids"])] = torch.tensor(f["input_ids"])
    return {
        "input_ids": input_ids,
        "attention_mask": (input_ids != PAD).long(),
        "labels": torch.tensor([f["label"] for f in features]),
    }


@dataclass
class Output:
    loss: torch.Tensor
    logits: torch.Tensor


class Classifier(nn.Module):
    def __init__(self):
        super().__init__()
        self.emb = nn.Embedding(VOCAB, 32, padding_idx=PAD)
        self.out = nn.Linear(32, 2)

    def forward(self, input_ids, attention_mask, labels=None):
        m = attention_mask.unsqueeze(-1).float()
        pooled = (self.emb(input_ids) * m).sum(1) / m.sum(1)
        logits = self.out(pooled)
        loss = F.cross_entropy(logits, labels) if labels is not None else None
        return Output(loss, logits)


loader = DataLoader(TextDataset(120), batch_size=16, shuffle=True, collate_fn=collate, pin_memory=True)
model = Classifier().to(device)
optimizer = torch.optim.AdamW(model.parameters(), lr=5e-3)
num_steps = 3 * len(loader)
lr_scheduler = torch.optim.lr_scheduler.LambdaLR(optimizer, lambda s: 1 - s / num_steps)

completed = 0
for epoch in range(3):
    for batch in loader:
        batch = {k: v.to(device, non_blocking=True) for k, v in batch.items()}
        outputs = model(**batch)
        outputs.loss.backward()
        optimizer.step()
        lr_scheduler.step()
        optimizer.zero_grad()
        completed += 1
print(f"steps {completed} final loss {outputs.loss.item():.4f}")
