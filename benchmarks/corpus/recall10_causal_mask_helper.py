# corpus: runnable
"""A tiny GPT-style language model whose attention mask comes from a helper called in every forward
pass with the same length, next to helpers that legitimately depend on the batch."""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
BLOCK, VOCAB, DIM = 16, 40, 32


def causal_mask(size):
    return torch.triu(torch.ones(size, size), diagonal=1).bool().to(device)  # paef: expect redundant-tensor; ok cpu-then-move


def key_padding(tokens, pad_id=0):
    return tokens == pad_id


def get_batch(data, batch_size):
    ix = torch.randint(len(data) - BLOCK - 1, (batch_size,))
    x = torch.stack([data[i : i + BLOCK] for i in ix])  # paef: ok elementwise-loop; ok list-to-tensor
    y = torch.stack([data[i + 1 : i + BLOCK + 1] for i in ix])  # paef: ok elementwise-loop; ok list-to-tensor
    return x.to(device), y.to(device)


class TinyGPT(nn.Module):
    def __init__(self):
        super().__init__()
        self.tok = nn.Embedding(VOCAB, DIM)
        self.pos = nn.Embedding(BLOCK, DIM)
        layer = nn.TransformerEncoderLayer(DIM, 4, 64, batch_first=True)
        self.blocks = nn.TransformerEncoder(layer, 2)
        self.head = nn.Linear(DIM, VOCAB)

    def forward(self, idx):
        t = idx.size(1)
        x = self.tok(idx) + self.pos(torch.arange(t, device=idx.device))  # paef: ok redundant-tensor
        x = self.blocks(x, mask=causal_mask(t), src_key_padding_mask=key_padding(idx))
        return self.head(x)


data = torch.randint(1, VOCAB, (2000,))
model = TinyGPT().to(device)
opt = torch.optim.AdamW(model.parameters(), lr=3e-3)
for step in range(20):
    xb, yb = get_batch(data, 8)
    logits = model(xb)
    loss = F.cross_entropy(logits.view(-1, VOCAB), yb.view(-1))
    opt.zero_grad(set_to_none=True)
    loss.backward()
    opt.step()
print(f"final loss {loss.item():.4f}")
