# corpus: runnable
"""A LLaMA-style block written out by hand: RMSNorm, SwiGLU, a causal mask and rotary tables built per call."""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
device = "cuda" if torch.cuda.is_available() else "cpu"
VOCAB, DIM, HEADS, CTX = 40, 32, 4, 12


class RMSNorm(nn.Module):
    def __init__(self, dim, eps=1e-5):
        super().__init__()
        self.eps = eps
        self.weight = nn.Parameter(torch.ones(dim))

    def forward(self, x):
        return x * torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + self.eps) * self.weight  # paef: expect operator-fusion


def rotary_tables(seq_len, head_dim, device):
    inv_freq = 1.0 / (10000 ** (torch.arange(0, head_dim, 2, device=device).float() / head_dim))  # paef: expect redundant-tensor
    t = torch.arange(seq_len, device=device).float()  # paef: expect redundant-tensor
    freqs = torch.outer(t, inv_freq)
    return freqs.cos(), freqs.sin()


def apply_rotary(x, cos, sin):
    x1, x2 = x[..., 0::2], x[..., 1::2]
    return torch.stack([x1 * cos - x2 * sin, x1 * sin + x2 * cos], dim=-1).flatten(-2)


class Block(nn.Module):
    def __init__(self):
        super().__init__()
        self.norm1, self.norm2 = RMSNorm(DIM), RMSNorm(DIM)
        self.qkv = nn.Linear(DIM, 3 * DIM, bias=False)
        self.out = nn.Linear(DIM, DIM, bias=False)
        self.w1, self.w3 = nn.Linear(DIM, 2 * DIM, bias=False), nn.Linear(DIM, 2 * DIM, bias=False)
        self.w2 = nn.Linear(2 * DIM, DIM, bias=False)

    def forward(self, x):
        B, T, C = x.shape
        q, k, v = self.qkv(self.norm1(x)).view(B, T, 3, HEADS, C // HEADS).permute(2, 0, 3, 1, 4)
        cos, sin = rotary_tables(T, C // HEADS, x.device)
        q, k = apply_rotary(q, cos, sin), apply_rotary(k, cos, sin)
        mask = torch.triu(torch.ones(T, T, device=x.device), diagonal=1).bool()  # paef: expect redundant-tensor
        att = (q @ k.transpose(-2, -1)) / (C // HEADS) ** 0.5
        att = att.masked_fill(mask, float("-inf")).softmax(-1)
        x = x + self.out((att @ v).transpose(1, 2).reshape(B, T, C))
        gate = self.w1(self.norm2(x))
        return x + self.w2(gate * torch.sigmoid(gate) * self.w3(self.norm2(x)))  # paef: expect operator-fusion


class TinyLM(nn.Module):
    def __init__(self):
        super().__init__()
        self.emb = nn.Embedding(VOCAB, DIM)
        self.block = Block()
        self.head = nn.Linear(DIM, VOCAB)

    def forward(self, idx):
        return self.head(self.block(self.emb(idx)))


model = TinyLM().to(device)
opt = torch.optim.AdamW(model.parameters(), lr=3e-3)
data = torch.randint(0, VOCAB, (64, CTX + 1), device=device)
for step in range(25):
    xb, yb = data[:, :-1], data[:, 1:]
    loss = F.cross_entropy(model(xb).reshape(-1, VOCAB), yb.reshape(-1))
    opt.zero_grad()
    loss.backward()
    opt.step()
print(f"loss {loss.item():.4f}")
