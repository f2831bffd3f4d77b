# corpus: runnable
"""A token classifier trained with a hand-written loop in the style of HF `no_trainer` scripts: a
helper moves each batch dict to the device, evaluation brings predictions and labels back."""
import numpy as np
import torch
import torch.nn as nn
from torch.utils.data import DataLoader

torch.manual_seed(0)
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
VOCAB, TAGS, LEN = 50, 5, 12


def make_examples(n, seed):
    g = torch.Generator().manual_seed(seed)
    ids = torch.randint(1, VOCAB, (n, LEN), generator=g)
    return [{"input_ids": ids[i], "labels": ids[i] % TAGS} for i in range(n)]


def collate(examples):
    return {k: torch.stack([ex[k] for ex in examples]) for k in examples[0]}


def move_to_device(batch, device):
    return {k: v.to(device) for k, v in batch.items()}


class Tagger(nn.Module):
    def __init__(self):
        super().__init__()
        self.emb = nn.Embedding(VOCAB, 32)
        self.out = nn.Linear(32, TAGS)

    def forward(self, input_ids, labels=None):
        logits = self.out(self.emb(input_ids))
        loss = nn.functional.cross_entropy(logits.reshape(-1, TAGS), labels.reshape(-1)) if labels is not None else None
        return {"loss": loss, "logits": logits}


def accuracy(preds, refs):
    return float((preds == refs).mean())


train_loader = DataLoader(make_examples(128, 0), batch_size=16, shuffle=True, collate_fn=collate)  # paef: ok pageable-transfer
eval_loader = DataLoader(make_examples(48, 1), batch_size=16, collate_fn=collate)  # paef: ok pageable-transfer
model = Tagger().to(device)
optimizer = torch.optim.AdamW(model.parameters(), lr=5e-3)
for epoch in range(2):
    model.train()
    for batch in train_loader:
        batch = move_to_device(batch, device)
        loss = model(**batch)["loss"]
        loss.backward()
        optimizer.step()
        optimizer.zero_grad()
    model.eval()
    all_preds, all_refs, host_refs = [], [], []
    for batch in eval_loader:
        host_refs.append(batch["labels"].numpy())
        batch = move_to_device(batch, device)
        with torch.no_grad():
            logits = model(**batch)["logits"]
        all_preds.append(logits.argmax(-1).cpu().numpy())  # paef: ok host-sync
        all_refs.append(batch["labels"].cpu().numpy())  # paef: expect ping-pong; ok host-sync
    preds, refs = np.concatenate(all_preds), np.concatenate(all_refs)
    print(f"epoch {epoch} acc {accuracy(preds, refs):.3f} same refs {bool((refs == np.concatenate(host_refs)).all())}")
