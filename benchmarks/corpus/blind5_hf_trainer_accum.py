# corpus: runnable
"""A Trainer-like class in the style of the transformers Trainer: TrainingArguments as a
dataclass, dataloaders built from keyword dicts, a training_step that returns the scaled loss,
gradient accumulation with clipping and a linear schedule, and an evaluation loop that
gathers logits and labels as NumPy for a compute_metrics callback."""
from dataclasses import dataclass

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader

torch.manual_seed(0)
rng = np.random.RandomState(0)


@dataclass
class TrainingArguments:
    per_device_train_batch_size: int = 8
    per_device_eval_batch_size: int = 32
    gradient_accumulation_steps: int = 4
    learning_rate: float = 3e-3
    num_train_epochs: int = 3
    max_grad_norm: float = 1.0
    dataloader_pin_memory: bool = True


def make_features(n, seq=10, vocab=40):
    ids = rng.randint(1, vocab, (n, seq))
    return [{"input_ids": row, "labels": int((row < 10).sum() > 2)} for row in ids]


def data_collator(features):
    return {"input_ids": torch.tensor(np.stack([f["input_ids"] for f in features])), "labels": torch.tensor([f["labels"] for f in features])}


class Classifier(nn.Module):
    def __init__(self, vocab=40, dim=32):
        super().__init__()
        self.emb = nn.EmbeddingBag(vocab, dim)
        self.head = nn.Sequential(nn.Linear(dim, dim), nn.GELU(), nn.Linear(dim, 2))

    def forward(self, input_ids, labels=None):
        logits = self.head(self.emb(input_ids))
        return {"loss": F.cross_entropy(logits, labels) if labels is not None else None, "logits": logits}


def compute_metrics(logits, labels):
    return {"accuracy": float((logits.argmax(-1) == labels).mean())}


class Trainer:
    def __init__(self, model, args, train_dataset, eval_dataset):
        self.model, self.args = model, args
        self.train_dataset, self.eval_dataset = train_dataset, eval_dataset
        self.device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
        self.model.to(self.device)

    def get_dataloader(self, dataset, batch_size, shuffle):
        kwargs = {"batch_size": batch_size, "collate_fn": data_collator, "shuffle": shuffle}
        if self.args.dataloader_pin_memory and self.device.type == "cuda":
            kwargs.update(pin_memory=True)
        return DataLoader(dataset, **kwargs)  # paef: refuse pageable-transfer

    def _prepare_inputs(self, inputs):
        return {k: v.to(self.device) for k, v in inputs.items()}

    def training_step(self, inputs):
        self.model.train()
        loss = self.model(**self._prepare_inputs(inputs))["loss"]
        loss = loss / self.args.gradient_accumulation_steps
        loss.backward()
        return loss

    def train(self):
        loader = self.get_dataloader(self.train_dataset, self.args.per_device_train_batch_size, True)
        optimizer = torch.optim.AdamW(self.model.parameters(), lr=self.args.learning_rate)
        total_steps = len(loader) // self.args.gradient_accumulation_steps * self.args.num_train_epochs
        scheduler = torch.optim.lr_scheduler.LambdaLR(optimizer, lambda s: max(0.0, 1 - s / total_steps))
        for epoch in range(self.args.num_train_epochs):
            tr_loss = torch.tensor(0.0, device=self.device)
            for step, inputs in enumerate(loader):
                tr_loss += self.training_step(inputs)  # paef: expect graph-retention
                if (step + 1) % self.args.gradient_accumulation_steps == 0:
                    nn.utils.clip_grad_norm_(self.model.parameters(), self.args.max_grad_norm)
                    optimizer.step()
                    scheduler.step()
                    optimizer.zero_grad()
            metrics = self.evaluate()
            print(f"epoch {epoch} loss {tr_loss.item() / (len(loader) / self.args.gradient_accumulation_steps):.4f} {metrics}")

    def evaluate(self):
        loader = self.get_dataloader(self.eval_dataset, self.args.per_device_eval_batch_size, False)
        self.model.eval()
        all_logits, all_labels = [], []
        for inputs in loader:
            inputs = self._prepare_inputs(inputs)
            with torch.no_grad():
                logits = self.model(**inputs)["logits"]
            all_logits.append(logits.cpu().numpy())  # paef: ok host-sync
            all_labels.append(inputs["labels"].cpu().numpy())  # paef: expect ping-pong; ok host-sync
        return compute_metrics(np.concatenate(all_logits), np.concatenate(all_labels))


trainer = Trainer(Classifier(), TrainingArguments(), make_features(256), make_features(96))
trainer.train()
