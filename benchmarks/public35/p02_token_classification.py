"""Token classification (NER) with a hand-written loop, in the style of HF `run_ner_no_trainer`."""
import random

import numpy as np
import torch
import torch.nn as nn
from torch.utils.data import DataLoader

random.seed(0)
np.random.seed(0)
torch.manual_seed(0)

LABELS = ["O", "B-PER", "I-PER", "B-LOC", "I-LOC"]
VOCAB = 200
PAD_ID = 0


def make_examples(n):
    rng = random.Random(n)
    out = []
    for _ in range(n):
        length = rng.randint(5, 14)
        ids = [rng.randint(1, VOCAB - 1) for _ in range(length)]
        tags = [(i % 7 == 0) * 1 + (i % 11 == 0) * 3 for i in ids]
        out.append({"input_ids": ids, "labels": tags})
    return out


class DataCollatorForTokenClassification:
    def __init__(self, label_pad_token_id=-100):
        self.label_pad_token_id = label_pad_token_id

    def __call__(self, features):
        max_len = max(len(f["input_ids"]) for f in features)
        input_ids = [f["input_ids"] + [PAD_ID] * (max_len - len(f["input_ids"])) for f in features]
        labels = [f["labels"] + [self.label_pad_token_id] * (max_len - len(f["labels"])) for f in features]
        mask = [[1] * len(f["input_ids"]) + [0] * (max_len - len(f["input_ids"])) for f in features]
        return {
            "input_ids": torch.tensor(input_ids, dtype=torch.long),
            "attention_mask": torch.tensor(mask, dtype=torch.long),
            "labels": torch.tensor(labels, dtype=torch.long),
        }


class TokenClassifier(nn.Module):
    def __init__(self, num_labels):
        super().__init__()
        self.embed = nn.Embedding(VOCAB, 32, padding_idx=PAD_ID)
        layer = nn.TransformerEncoderLayer(32, 4, 64, dropout=0.1, batch_first=True)
        self.encoder = nn.TransformerEncoder(layer, 2, enable_nested_tensor=False)
        self.classifier = nn.Linear(32, num_labels)
        self.loss_fct = nn.CrossEntropyLoss()

    def forward(self, input_ids, attention_mask, labels=None):
        h = self.encoder(self.embed(input_ids), src_key_padding_mask=attention_mask == 0)
        logits = self.classifier(h)
        loss = None
        if labels is not None:
            loss = self.loss_fct(logits.view(-1, logits.size(-1)), labels.view(-1))
        return loss, logits


def get_linear_schedule_with_warmup(optimizer, num_warmup_steps, num_training_steps):
    def lr_lambda(step):
        if step < num_warmup_steps:
            return float(step) / float(max(1, num_warmup_steps))
        return max(0.0, float(num_training_steps - step) / float(max(1, num_training_steps - num_warmup_steps)))

    return torch.optim.lr_scheduler.LambdaLR(optimizer, lr_lambda)


def get_labels(predictions, references):
    y_pred = predictions.detach().cpu().clone().tolist()
    y_true = references.detach().cpu().clone().tolist()
    true_predictions = [[LABELS[p] for (p, l) in zip(pred, gold) if l != -100] for pred, gold in zip(y_pred, y_true)]
    true_labels = [[LABELS[l] for (p, l) in zip(pred, gold) if l != -100] for pred, gold in zip(y_pred, y_true)]
    return true_predictions, true_labels


def main():
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    collator = DataCollatorForTokenClassification()
    train_dataloader = DataLoader(make_examples(96), shuffle=True, collate_fn=collator, batch_size=16)
    eval_dataloader = DataLoader(make_examples(32), collate_fn=collator, batch_size=16)
    model = TokenClassifier(len(LABELS)).to(device)
    no_decay = ["bias", "LayerNorm.weight"]
    groups = [
        {"params": [p for n, p in model.named_parameters() if not any(nd in n for nd in no_decay)], "weight_decay": 0.01},
        {"params": [p for n, p in model.named_parameters() if any(nd in n for nd in no_decay)], "weight_decay": 0.0},
    ]
    optimizer = torch.optim.AdamW(groups, lr=1e-3)
    num_epochs = 2
    accumulation_steps = 2
    max_steps = num_epochs * len(train_dataloader) // accumulation_steps
    lr_scheduler = get_linear_schedule_with_warmup(optimizer, 2, max_steps)
    completed_steps = 0
    for epoch in range(num_epochs):
        model.train()
        total_loss = 0
        for step, batch in enumerate(train_dataloader):
            batch = {k: v.to(device) for k, v in batch.items()}
            loss, _ = model(**batch)
            loss = loss / accumulation_steps
            total_loss += loss.detach().float()
            loss.backward()
            if step % accumulation_steps == 0 or step == len(train_dataloader) - 1:
                torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
                optimizer.step()
                lr_scheduler.step()
                optimizer.zero_grad()
                completed_steps += 1

        model.eval()
        all_preds, all_refs = [], []
        eval_loss = 0.0
        for step, batch in enumerate(eval_dataloader):
            batch = {k: v.to(device) for k, v in batch.items()}
            loss, logits = model(**batch)
            eval_loss += loss.item()
            predictions = logits.argmax(dim=-1)
            preds, refs = get_labels(predictions, batch["labels"])
            all_preds.extend(preds)
            all_refs.extend(refs)
        correct = sum(p == r for ps, rs in zip(all_preds, all_refs) for p, r in zip(ps, rs))
        total = sum(len(rs) for rs in all_refs)
        print(f"epoch {epoch}: train_loss {total_loss.item() / len(train_dataloader):.4f} "
              f"eval_loss {eval_loss / len(eval_dataloader):.4f} acc {correct / total:.4f}")
    checksum = sum(p.detach().double().sum().item() for p in model.parameters())
    print(f"checksum {checksum:.6f}")


if __name__ == "__main__":
    main()
