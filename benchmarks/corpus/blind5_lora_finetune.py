# corpus: runnable
"""LoRA fine-tuning of a small pretrained text classifier: the base Linear layers are frozen
and wrapped with low-rank A/B adapters (B initialised to zero, scaled by alpha/r); the
tokenised dataset is a dict of Python lists, as a datasets.Dataset.to_dict() would give; the
adapters are merged into the base weights after training and the merged model re-evaluated."""
import math
import random

import torch
import torch.nn as nn
import torch.nn.functional as F

random.seed(0)
torch.manual_seed(0)
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
VOCAB, SEQ = 50, 12


class LoRALinear(nn.Module):
    def __init__(self, base: nn.Linear, r=4, alpha=8, dropout=0.0):
        super().__init__()
        self.base, self.scaling = base, alpha / r
        self.lora_A = nn.Linear(base.in_features, r, bias=False)
        self.lora_B = nn.Linear(r, base.out_features, bias=False)
        self.dropout = nn.Dropout(dropout)
        nn.init.kaiming_uniform_(self.lora_A.weight, a=math.sqrt(5))
        nn.init.zeros_(self.lora_B.weight)
        self.merged = False

    def forward(self, x):
        out = self.base(x)
        if not self.merged:
            out = out + self.lora_B(self.lora_A(self.dropout(x))) * self.scaling
        return out

    @torch.no_grad()
    def merge(self):
        self.base.weight += (self.lora_B.weight @ self.lora_A.weight) * self.scaling
        self.merged = True


class TextClassifier(nn.Module):
    def __init__(self, n_classes=2):
        super().__init__()
        self.emb = nn.Embedding(VOCAB, 32)
        self.proj = nn.Linear(32, 32)
        self.head = nn.Linear(32, n_classes)

    def forward(self, ids):
        return self.head(torch.tanh(self.proj(self.emb(ids).mean(1))))


def make_split(n):
    ids = [[random.randrange(VOCAB) for _ in range(SEQ)] for _ in range(n)]
    return {"input_ids": ids, "label": [int(sum(t < 10 for t in row) >= 3) for row in ids]}


train_data, eval_data = make_split(384), make_split(128)
model = TextClassifier()
for p in model.parameters():
    p.requires_grad_(False)
model.proj, model.head = LoRALinear(model.proj), LoRALinear(model.head)
model.head.base.weight.normal_(0, 0.1)
model.to(device)
trainable = [p for p in model.parameters() if p.requires_grad]
print("trainable params", sum(p.numel() for p in trainable))
optimizer = torch.optim.AdamW(trainable, lr=1e-2)


def evaluate():
    model.eval()
    ids = torch.tensor(eval_data["input_ids"], device=device)  # paef: ok dict-as-list; ok redundant-tensor
    labels = torch.tensor(eval_data["label"], device=device)  # paef: ok dict-as-list; ok redundant-tensor
    with torch.inference_mode():
        return (model(ids).argmax(-1) == labels).float().mean().item()


for epoch in range(4):
    model.train()
    order = list(range(len(train_data["label"])))
    random.shuffle(order)
    for i in range(0, len(order), 32):
        idx = order[i : i + 32]
        ids = torch.tensor([train_data["input_ids"][j] for j in idx], device=device)  # paef: expect dict-as-list
        labels = torch.tensor([train_data["label"][j] for j in idx], device=device)  # paef: expect dict-as-list
        loss = F.cross_entropy(model(ids), labels)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    print(f"epoch {epoch} loss {loss.item():.4f} eval acc {evaluate():.3f}")
model.proj.merge()
model.head.merge()
print(f"merged eval acc {evaluate():.3f}")
