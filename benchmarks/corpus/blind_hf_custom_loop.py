# corpus: runnable
"""A Hugging Face style custom loop: dict batches, model(**batch), a metric object filled per batch."""
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, Dataset

torch.manual_seed(0)
device = torch.device("cuda") if torch.cuda.is_available() else torch.device("cpu")


class ToyTokenized(Dataset):
    def __init__(self, n, seq_len=10, vocab=30):
        g = torch.Generator().manual_seed(n)
        self.input_ids = torch.randint(1, vocab, (n, seq_len), generator=g)
        self.attention_mask = (torch.rand(n, seq_len, generator=g) > 0.2).long()
        self.labels = (self.input_ids[:, 0] > vocab // 2).long()

    def __len__(self):
        return len(self.labels)

    def __getitem__(self, i):
        return {"input_ids": self.input_ids[i], "attention_mask": self.attention_mask[i], "labels": self.labels[i]}


class SeqClassifier(nn.Module):
    def __init__(self, vocab=30, dim=16, n_labels=2):
        super().__init__()
        self.emb = nn.Embedding(vocab, dim)
        self.head = nn.Linear(dim, n_labels)

    def forward(self, input_ids, attention_mask, labels=None):
        h = self.emb(input_ids) * attention_mask.unsqueeze(-1)
        pooled = h.sum(1) / attention_mask.sum(1, keepdim=True).clamp(min=1)
        logits = self.head(pooled)
        loss = F.cross_entropy(logits, labels) if labels is not None else None
        return {"loss": loss, "logits": logits}


class Accuracy:
    def __init__(self):
        self.preds, self.refs = [], []

    def add_batch(self, predictions, references):
        self.preds.append(predictions.detach().cpu())
        self.refs.append(references.detach().cpu())

    def compute(self):
        p, r = torch.cat(self.preds), torch.cat(self.refs)
        return {"accuracy": (p == r).float().mean().item()}


train_dataloader = DataLoader(ToyTokenized(160), shuffle=True, batch_size=16, pin_memory=True)
eval_dataloader = DataLoader(ToyTokenized(48), batch_size=16, pin_memory=True)
model = SeqClassifier().to(device)
optimizer = torch.optim.AdamW(model.parameters(), lr=5e-3)
num_epochs = 3
num_training_steps = num_epochs * len(train_dataloader)
lr_scheduler = torch.optim.lr_scheduler.LinearLR(optimizer, start_factor=1.0, end_factor=0.1, total_iters=num_training_steps)

progress = 0
for epoch in range(num_epochs):
    model.train()
    for batch in train_dataloader:
        batch = {k: v.to(device, non_blocking=True) for k, v in batch.items()}
        outputs = model(**batch)
        loss = outputs["loss"]
        loss.backward()
        optimizer.step()
        lr_scheduler.step()
        optimizer.zero_grad()
        progress += 1

    metric = Accuracy()
    model.eval()
    for batch in eval_dataloader:
        batch = {k: v.to(device, non_blocking=True) for k, v in batch.items()}
        with torch.no_grad():
            outputs = model(**batch)
        logits = outputs["logits"]
        predictions = torch.argmax(logits, dim=-1)
        metric.add_batch(predictions=predictions, references=batch["labels"])  # paef: ok host-sync
    print(f"epoch {epoch} steps {progress} {metric.compute()}")
