# corpus: runnable
"""HF-style fine-tuning loop: a toy tokenizer, a padding collate, AMP, grad accumulation, warmup schedule, eval under no_grad."""
import math
import random

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, Dataset

random.seed(0)
np.random.seed(0)
torch.manual_seed(0)
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")

config = {
    "lr": 3e-3,
    "epochs": 2,
    "batch_size": 16,
    "grad_accum": 2,
    "warmup": 4,
    "log_every": 5,
    "loader": {"num_workers": 0, "pin_memory": torch.cuda.is_available()},
}


class ToyTokenizer:
    def __init__(self, words):
        self.vocab = {"[PAD]": 0, "[CLS]": 1, "[UNK]": 2}
        for w in words:
            self.vocab.setdefault(w, len(self.vocab))
        self.pad_token_id = 0

    def __call__(self, text, max_length=12):
        ids = [1] + [self.vocab.get(w, 2) for w in text.split()]
        return {"input_ids": ids[:max_length]}


WORDS = "good bad great awful fine movie plot actor boring fun the a".split()
tokenizer = ToyTokenizer(WORDS)


def make_texts(n, rng):
    texts, labels = [], []
    for _ in range(n):
        words = [rng.choice(WORDS) for _ in range(rng.randint(3, 10))]
        texts.append(" ".join(words))
        labels.append(int(sum(w in ("good", "great", "fun", "fine") for w in words) > 1))
    return texts, labels


class TextDataset(Dataset):
    def __init__(self, texts, labels):
        self.encodings = [tokenizer(t) for t in texts]
        self.labels = labels

    def __len__(self):
        return len(self.labels)

    def __getitem__(self, i):
        return {"input_ids": self.encodings[i]["input_ids"], "label": self.labels[i]}


def collate(features):
    longest = max(len(f["input_ids"]) for f in features)
    input_ids = [f["input_ids"] + [tokenizer.pad_token_id] * (longest - len(f["input_ids"])) for f in features]
    attention = [[1] * len(f["input_ids"]) + [0] * (longest - len(f["input_ids"])) for f in features]
    return {
        "input_ids": torch.tensor(input_ids, dtype=torch.long),
        "attention_mask": torch.tensor(attention, dtype=torch.long),
        "labels": torch.tensor([f["label"] for f in features], dtype=torch.long),
    }


class Classifier(nn.Module):
    def __init__(self, vocab_size, dim=32):
        super().__init__()
        self.emb = nn.Embedding(vocab_size, dim, padding_idx=0)
        self.layer = nn.TransformerEncoderLayer(dim, 4, 64, batch_first=True, dropout=0.0)
        self.head = nn.Linear(dim, 2)

    def forward(self, input_ids, attention_mask, labels=None):
        h = self.layer(self.emb(input_ids), src_key_padding_mask=attention_mask == 0)
        m = attention_mask.unsqueeze(-1).float()
        pooled = (h * m).sum(1) / m.sum(1)
        logits = self.head(pooled)
        loss = F.cross_entropy(logits, labels) if labels is not None else None
        return loss, logits


rng = random.Random(0)
train_texts, train_labels = make_texts(160, rng)
val_texts, val_labels = make_texts(64, rng)
train_loader = DataLoader(TextDataset(train_texts, train_labels), batch_size=config["batch_size"], shuffle=True, collate_fn=collate, **config["loader"])  # paef: refuse pageable-transfer; refuse sync-dataloader
val_loader = DataLoader(TextDataset(val_texts, val_labels), batch_size=32, collate_fn=collate, **config["loader"])  # paef: refuse pageable-transfer; refuse sync-dataloader

model = Classifier(len(tokenizer.vocab)).to(device)
optimizer = torch.optim.AdamW(model.parameters(), lr=config["lr"], weight_decay=0.01)
total_steps = config["epochs"] * math.ceil(len(train_loader) / config["grad_accum"])
scheduler = torch.optim.lr_scheduler.LambdaLR(
    optimizer, lambda s: min(1.0, (s + 1) / config["warmup"]) * max(0.0, (total_steps - s) / total_steps)
)
use_amp = device.type == "cuda"
scaler = torch.amp.GradScaler("cuda", enabled=use_amp)


def evaluate(model, loader):
    model.eval()
    preds, refs = [], []
    with torch.no_grad():
        for batch in loader:
            batch = {k: v.to(device, non_blocking=True) for k, v in batch.items()}
            _, logits = model(**batch)
            preds.append(logits.argmax(-1).cpu().numpy())  # paef: ok host-sync
            refs.append(batch["labels"].cpu().numpy())  # paef: ok host-sync; ok ping-pong
    preds, refs = np.concatenate(preds), np.concatenate(refs)
    return float((preds == refs).mean())


global_step = 0
for epoch in range(config["epochs"]):
    model.train()
    for step, batch in enumerate(train_loader):
        batch = {k: v.to(device, non_blocking=True) for k, v in batch.items()}
        with torch.autocast(device_type=device.type, enabled=use_amp):
            loss, _ = model(**batch)
            loss = loss / config["grad_accum"]
        scaler.scale(loss).backward()
        if (step + 1) % config["grad_accum"] == 0 or step + 1 == len(train_loader):
            scaler.unscale_(optimizer)
            torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
            scaler.step(optimizer)
            scaler.update()
            scheduler.step()
            optimizer.zero_grad(set_to_none=True)
            global_step += 1
            if global_step % config["log_every"] == 0:
                print(f"step {global_step} loss {loss.item() * config['grad_accum']:.4f} lr {scheduler.get_last_lr()[0]:.5f}")  # paef: ok host-sync
    print(f"epoch {epoch} val acc {evaluate(model, val_loader):.4f}")
