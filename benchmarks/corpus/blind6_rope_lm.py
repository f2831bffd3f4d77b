# corpus: runnable
"""A tiny LLaMA-style character LM: RMSNorm written by hand, rotary position embeddings whose
inverse frequencies and cos/sin tables are computed inside the attention forward, a causal mask
built per call, SwiGLU feed-forward, weight tying; perplexity on held-out text, and a short
greedy continuation at the end."""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
TEXT = "the quick brown fox jumps over the lazy dog. " * 40
chars = sorted(set(TEXT))
stoi = {c: i for i, c in enumerate(chars)}
data = torch.tensor([stoi[c] for c in TEXT])
BLOCK, DIM, HEADS = 32, 48, 4


class RMSNorm(nn.Module):
    def __init__(self, dim, eps=1e-6):
        super().__init__()
        self.eps = eps
        self.weight = nn.Parameter(torch.ones(dim))

    def forward(self, x):
        return x * torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + self.eps) * self.weight  # paef: ok operator-fusion


def rotate_half(x):
    x1, x2 = x.chunk(2, dim=-1)
    return torch.cat((-x2, x1), dim=-1)


class Attention(nn.Module):
    def __init__(self):
        super().__init__()
        self.qkv = nn.Linear(DIM, 3 * DIM, bias=False)
        self.proj = nn.Linear(DIM, DIM, bias=False)
        self.head_dim = DIM // HEADS

    def forward(self, x):
        B, T, _ = x.shape
        q, k, v = self.qkv(x).view(B, T, 3, HEADS, self.head_dim).permute(2, 0, 3, 1, 4)
        inv_freq = 1.0 / (10000 ** (torch.arange(0, self.head_dim, 2).float() / self.head_dim))  # paef: expect redundant-tensor
        freqs = torch.outer(torch.arange(T).float(), inv_freq).to(x.device)  # paef: ok redundant-tensor; ok cpu-then-move
        emb = torch.cat((freqs, freqs), dim=-1)
        cos, sin = emb.cos(), emb.sin()
        q, k = q * cos + rotate_half(q) * sin, k * cos + rotate_half(k) * sin
        mask = torch.triu(torch.ones(T, T, dtype=torch.bool), diagonal=1).to(x.device)  # paef: expect redundant-tensor; ok cpu-then-move
        att = (q @ k.transpose(-2, -1)) / math.sqrt(self.head_dim)
        att = att.masked_fill(mask, float("-inf")).softmax(-1)
        return self.proj((att @ v).transpose(1, 2).reshape(B, T, DIM))


class Block(nn.Module):
    def __init__(self):
        super().__init__()
        self.n1, self.n2 = RMSNorm(DIM), RMSNorm(DIM)
        self.attn = Attention()
        self.w1, self.w3 = nn.Linear(DIM, 2 * DIM, bias=False), nn.Linear(DIM, 2 * DIM, bias=False)
        self.w2 = nn.Linear(2 * DIM, DIM, bias=False)

    def forward(self, x):
        x = x + self.attn(self.n1(x))
        h = self.n2(x)
        return x + self.w2(F.silu(self.w1(h)) * self.w3(h))


class TinyLlama(nn.Module):
    def __init__(self, vocab):
        super().__init__()
        self.tok = nn.Embedding(vocab, DIM)
        self.blocks = nn.Sequential(Block(), Block())
        self.norm = RMSNorm(DIM)
        self.head = nn.Linear(DIM, vocab, bias=False)
        self.head.weight = self.tok.weight

    def forward(self, idx):
        return self.head(self.norm(self.blocks(self.tok(idx))))


def get_batch(split_data):
    ix = torch.randint(len(split_data) - BLOCK - 1, (16,))
    x = torch.stack([split_data[i : i + BLOCK] for i in ix])  # paef: ok list-to-tensor; ok elementwise-loop
    y = torch.stack([split_data[i + 1 : i + BLOCK + 1] for i in ix])  # paef: ok list-to-tensor; ok elementwise-loop
    return x.to(device), y.to(device)


train_data, val_data = data[: int(0.9 * len(data))], data[int(0.9 * len(data)) :]
model = TinyLlama(len(chars)).to(device)
optimizer = torch.optim.AdamW(model.parameters(), lr=3e-3)
for it in range(150):
    x, y = get_batch(train_data)
    loss = F.cross_entropy(model(x).view(-1, len(chars)), y.view(-1))
    optimizer.zero_grad(set_to_none=True)
    loss.backward()
    optimizer.step()

model.eval()
total_loss, total_tokens = 0.0, 0
with torch.no_grad():
    for i in range(0, len(val_data) - BLOCK - 1, BLOCK):
        x = val_data[i : i + BLOCK].unsqueeze(0).to(device)
        y = val_data[i + 1 : i + BLOCK + 1].unsqueeze(0).to(device)
        loss = F.cross_entropy(model(x).view(-1, len(chars)), y.view(-1), reduction="sum")
        total_loss += loss.item()  # paef: ok host-sync
        total_tokens += y.numel()
    print(f"val ppl {math.exp(total_loss / total_tokens):.3f}")
    idx = torch.tensor([[stoi["t"]]], device=device)
    for _ in range(20):
        nxt = model(idx[:, -BLOCK:])[:, -1].argmax(-1, keepdim=True)
        idx = torch.cat([idx, nxt], dim=1)
print("".join(chars[i] for i in idx[0].tolist()))
