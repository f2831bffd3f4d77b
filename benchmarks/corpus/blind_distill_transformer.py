# corpus: runnable
"""Knowledge distillation into a small transformer encoder: teacher forward per batch, causal mask, label smoothing."""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
vocab, seq_len, d_model, n_cls = 40, 12, 32, 3


class PositionalEncoding(nn.Module):
    def __init__(self, d_model, dropout=0.1, max_len=64):
        super().__init__()
        self.dropout = nn.Dropout(p=dropout)
        position = torch.arange(max_len).unsqueeze(1)
        div_term = torch.exp(torch.arange(0, d_model, 2) * (-math.log(10000.0) / d_model))
        pe = torch.zeros(max_len, 1, d_model)
        pe[:, 0, 0::2] = torch.sin(position * div_term)
        pe[:, 0, 1::2] = torch.cos(position * div_term)
        self.register_buffer("pe", pe)

    def forward(self, x):
        x = x + self.pe[: x.size(0)]
        return self.dropout(x)


class Student(nn.Module):
    def __init__(self):
        super().__init__()
        self.embedding = nn.Embedding(vocab, d_model)
        self.pos_encoder = PositionalEncoding(d_model, dropout=0.0)
        layer = nn.TransformerEncoderLayer(d_model, nhead=4, dim_feedforward=64, dropout=0.0)
        self.encoder = nn.TransformerEncoder(layer, num_layers=2, enable_nested_tensor=False)
        self.cls = nn.Linear(d_model, n_cls)

    def forward(self, src, src_mask):
        x = self.embedding(src) * math.sqrt(d_model)
        x = self.pos_encoder(x)
        x = self.encoder(x, src_mask)
        return self.cls(x.mean(0))


def generate_square_subsequent_mask(sz):
    return torch.triu(torch.ones(sz, sz) * float("-inf"), diagonal=1)


teacher = nn.Sequential(nn.Embedding(vocab, 64), nn.Flatten(), nn.Linear(64 * seq_len, n_cls)).to(device)
teacher.eval()
student = Student().to(device)
optimizer = torch.optim.AdamW(student.parameters(), lr=1e-3)
T, alpha = 2.0, 0.7

tokens = torch.randint(0, vocab, (96, seq_len))
labels = torch.randint(0, n_cls, (96,))
for epoch in range(2):
    student.train()
    epoch_loss = 0.0
    for i in range(0, len(tokens), 32):
        src = tokens[i : i + 32].to(device)  # paef: ok pageable-transfer; ok cpu-then-move
        y = labels[i : i + 32].to(device)  # paef: ok pageable-transfer; ok cpu-then-move
        src_mask = generate_square_subsequent_mask(seq_len).to(device)  # paef: expect redundant-tensor; ok cpu-then-move
        t_logits = teacher(src)  # paef: ok eval-without-no-grad
        s_logits = student(src.t(), src_mask)
        soft = F.kl_div(F.log_softmax(s_logits / T, dim=-1), F.softmax(t_logits / T, dim=-1), reduction="batchmean") * T * T
        hard = F.cross_entropy(s_logits, y, label_smoothing=0.1)
        loss = alpha * soft + (1 - alpha) * hard
        optimizer.zero_grad()
        loss.backward()
        torch.nn.utils.clip_grad_norm_(student.parameters(), 0.5)
        optimizer.step()
        epoch_loss += loss.item()  # paef: expect host-sync
    print(f"epoch {epoch} loss {epoch_loss / 3:.4f}")

student.eval()
with torch.no_grad():
    mask = generate_square_subsequent_mask(seq_len).to(device)
    acc = (student(tokens.t().to(device), mask).argmax(-1) == labels.to(device)).float().mean()
print(f"train acc {acc.item():.4f}")
