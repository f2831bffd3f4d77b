# Public check 37, p08: BERT sequence-classification fine-tuning loop (HF model, AdamW, linear warmup).
# Source: https://github.com/FarzadSabahi/Finetune_LLM BERT_FineTune.py @ d6b1e78e
# Changes to make it run on the CPU in seconds:
# - transformers / datasets (not in the venv; the model and IMDB would be downloaded) replaced by a
#   stand-in block: a tiny embedding + mean-pool classifier with the HF call shape
#   (`model(input_ids, attention_mask=..., labels=...)` returning an object with `.loss`), a
#   tokenizer-less `load_dataset` of 24 / 8 seeded random token rows (max_length 512 -> 16) whose
#   `map(encode)` / `set_format` are no-ops and whose items are dicts of tensors, torch's AdamW,
#   and get_linear_schedule_with_warmup as a LambdaLR.
# - `model.save_pretrained('./fine_tuned_bert')` replaced by a checksum print.
# The loop is the source's lines.
import torch
from torch.utils.data import DataLoader

# ---- stand-in for transformers / datasets (not part of the source) ----
import torch.nn as nn
from types import SimpleNamespace

torch.manual_seed(0)


class BertForSequenceClassification(nn.Module):
    def __init__(self, vocab=100, dim=16, num_labels=2):
        super().__init__()
        self.emb = nn.Embedding(vocab, dim)
        self.cls = nn.Linear(dim, num_labels)

    @classmethod
    def from_pretrained(cls, name):
        return cls()

    def forward(self, input_ids, attention_mask=None, labels=None):
        h = self.emb(input_ids) * attention_mask.unsqueeze(-1)
        logits = self.cls(h.sum(1) / attention_mask.sum(1, keepdim=True))
        loss = nn.functional.cross_entropy(logits, labels)
        return SimpleNamespace(loss=loss, logits=logits)


class BertTokenizer:
    @classmethod
    def from_pretrained(cls, name):
        return cls()


class _Split(torch.utils.data.Dataset):
    def __init__(self, n, seed):
        g = torch.Generator().manual_seed(seed)
        self.ids = torch.randint(1, 100, (n, 16), generator=g)
        self.mask = (torch.rand(n, 16, generator=g) > 0.2).long()
        self.mask[:, 0] = 1
        self.label = torch.randint(0, 2, (n,), generator=g)

    def map(self, fn, batched=False):
        return self

    def set_format(self, type=None, columns=None):
        pass

    def __len__(self):
        return len(self.label)

    def __getitem__(self, i):
        return {'input_ids': self.ids[i], 'attention_mask': self.mask[i], 'label': self.label[i]}


def load_dataset(name):
    return {'train': _Split(24, 1), 'test': _Split(8, 2)}


AdamW = torch.optim.AdamW


def get_linear_schedule_with_warmup(optimizer, num_warmup_steps, num_training_steps):
    return torch.optim.lr_scheduler.LambdaLR(optimizer, lambda s: max(0.0, (num_training_steps - s) / max(1, num_training_steps - num_warmup_steps)))
# ---- end of stand-in ----

model = BertForSequenceClassification.from_pretrained('bert-base-uncased')
tokenizer = BertTokenizer.from_pretrained('bert-base-uncased')

dataset = load_dataset('imdb')
train_dataset = dataset['train']
test_dataset = dataset['test']

def encode(examples):
    return tokenizer(examples['text'], truncation=True, padding='max_length', max_length=512)

train_dataset = train_dataset.map(encode, batched=True)
test_dataset = test_dataset.map(encode, batched=True)

train_dataset.set_format(type='torch', columns=['input_ids', 'attention_mask', 'label'])
test_dataset.set_format(type='torch', columns=['input_ids', 'attention_mask', 'label'])

train_loader = DataLoader(train_dataset, batch_size=8, shuffle=True)
test_loader = DataLoader(test_dataset, batch_size=8)

optimizer = AdamW(model.parameters(), lr=2e-5)
total_steps = len(train_loader) * 3
scheduler = get_linear_schedule_with_warmup(optimizer, num_warmup_steps=0, num_training_steps=total_steps)

device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
model.to(device)

for epoch in range(3):
    model.train()
    for batch in train_loader:
        optimizer.zero_grad()
        input_ids = batch['input_ids'].to(device)
        attention_mask = batch['attention_mask'].to(device)
        labels = batch['label'].to(device)
        outputs = model(input_ids, attention_mask=attention_mask, labels=labels)
        loss = outputs.loss
        loss.backward()
        optimizer.step()
        scheduler.step()

print("checksum", round(sum(p.double().sum().item() for p in model.parameters()), 6))
