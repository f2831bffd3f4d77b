# corpus: runnable
"""Fine-tuning loop in the Hugging Face style without the library: a whitespace tokenizer
with a vocab dict, a Dataset that tokenizes in __getitem__, a padding collator returning a
dict, `model(**batch)` returning a dict with the loss, a linear warmup scheduler, and a
metric object fed with add_batch and computed after the evaluation loop."""
import random

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, Dataset

random.seed(0)
torch.manual_seed(0)
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")

POS = ["good", "great", "fine", "lovely", "superb"]
NEG = ["bad", "awful", "poor", "boring", "terrible"]
FILL = ["the", "movie", "was", "plot", "acting", "really", "quite", "a", "film"]


def make_example():
    label = random.randint(0, 1)
    words = random.choices(FILL, k=random.randint(4, 9)) + [random.choice(POS if label else NEG)]
    random.shuffle(words)
    return " ".join(words), label


class Tokenizer:
    def __init__(self, texts):
        self.vocab = {"[PAD]": 0, "[UNK]": 1, "[CLS]": 2}
        for t in texts:
            for w in t.split():
                self.vocab.setdefault(w, len(self.vocab))

    def __call__(self, text, max_length=16):
        ids = [self.vocab["[CLS]"]] + [self.vocab.get(w, 1) for w in text.lower().split()]
        ids = ids[:max_length]
        return {"input_ids": ids, "attention_mask": [1] * len(ids)}


class TextDataset(Dataset):
    def __init__(self, examples, tokenizer):
        self.examples, self.tokenizer = examples, tokenizer

    def __len__(self):
        return len(self.examples)

    def __getitem__(self, i):
        text, label = self.examples[i]
        enc = self.tokenizer(text)  # paef: expect cpu-function
        enc["labels"] = label
        return enc


def collate(features):
    L = max(len(f["input_ids"]) for f in features)
    return {
        "input_ids": torch.tensor([f["input_ids"] + [0] * (L - len(f["input_ids"])) for f in features]),
        "attention_mask": torch.tensor([f["attention_mask"] + [0] * (L - len(f["attention_mask"])) for f in features]),
        "labels": torch.tensor([f["labels"] for f in features]),
    }


class Classifier(nn.Module):
    def __init__(self, vocab_size, dim=32):
        super().__init__()
        self.emb = nn.Embedding(vocab_size, dim, padding_idx=0)
        self.enc = nn.GRU(dim, dim, batch_first=True)
        self.head = nn.Linear(dim, 2)

    def forward(self, input_ids, attention_mask, labels=None):
        h, _ = self.enc(self.emb(input_ids))
        m = attention_mask.unsqueeze(-1).float()
        logits = self.head((h * m).sum(1) / m.sum(1))
        out = {"logits": logits}
        if labels is not None:
            out["loss"] = F.cross_entropy(logits, labels)
        return out


class Accuracy:
    def __init__(self):
        self.preds, self.refs = [], []

    def add_batch(self, predictions, references):
        self.preds.append(predictions.cpu())
        self.refs.append(references.cpu())

    def compute(self):
        p, r = torch.cat(self.preds), torch.cat(self.refs)
        return {"accuracy": (p == r).float().mean().item()}


train_ex = [make_example() for _ in range(320)]
eval_ex = [make_example() for _ in range(80)]
tok = Tokenizer([t for t, _ in train_ex])
train_dl = DataLoader(TextDataset(train_ex, tok), batch_size=16, shuffle=True, collate_fn=collate)  # paef: ok sync-dataloader; ok pageable-transfer
eval_dl = DataLoader(TextDataset(eval_ex, tok), batch_size=40, collate_fn=collate)  # paef: ok sync-dataloader; ok pageable-transfer
model = Classifier(len(tok.vocab)).to(device)
optimizer = torch.optim.AdamW(model.parameters(), lr=5e-3)
num_epochs = 3
num_training_steps = num_epochs * len(train_dl)
lr_scheduler = torch.optim.lr_scheduler.LambdaLR(optimizer, lambda s: min((s + 1) / 5, 1.0) * (1 - s / num_training_steps))

for epoch in range(num_epochs):
    model.train()
    for step, batch in enumerate(train_dl):
        batch = {k: v.to(device) for k, v in batch.items()}
        outputs = model(**batch)
        loss = outputs["loss"]
        loss.backward()
        optimizer.step()
        lr_scheduler.step()
        optimizer.zero_grad()
        if step % 10 == 0:
            print(f"epoch {epoch} step {step} loss {loss.item():.4f}")
    metric = Accuracy()
    model.eval()
    for batch in eval_dl:
        batch = {k: v.to(device) for k, v in batch.items()}
        with torch.no_grad():
            outputs = model(**batch)
        predictions = outputs["logits"].argmax(dim=-1)
        metric.add_batch(predictions=predictions, references=batch["labels"])
    print(f"epoch {epoch} eval {metric.compute()}")
