# corpus: runnable
"""HF-style loop that computes a metric from lists each step and ships the labels back up."""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
device = "cuda" if torch.cuda.is_available() else "cpu"
model = nn.Linear(10, 3).to(device)
opt = torch.optim.AdamW(model.parameters(), lr=1e-2)
batches = [{"inputs": torch.randn(16, 10), "labels": torch.randint(0, 3, (16,))} for _ in range(12)]

for epoch in range(2):
    agree = 0
    for batch in batches:
        batch = {k: v.to(device) for k, v in batch.items()}  # paef: ok pageable-transfer
        logits = model(batch["inputs"])
        label_list = batch["labels"].tolist()  # paef: ok host-sync; ok ping-pong
        targets = torch.tensor(label_list, device=device)  # paef: expect ping-pong
        loss = F.cross_entropy(logits, targets)
        opt.zero_grad()
        loss.backward()
        opt.step()
        preds = logits.argmax(-1).tolist()  # paef: expect host-sync
        agree += sum(int(p == l) for p, l in zip(preds, label_list))
    print(f"epoch {epoch} train acc {agree / 192:.4f}")
