# corpus: runnable
# Red team 56 (blind): a one-layer causal self-attention language model over "counting" sequences, trained
# with a full causal mask, then decoded three ways: a full recompute each step (mask and positions built from
# the current length t), a KV cache grown with torch.cat (position id = t), and the cached decode with a
# windowed repetition penalty (a penalty vector rebuilt every step and written for the last tokens only).
import math

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(5601)
torch.set_num_threads(1)
device = 'cuda' if torch.cuda.is_available() else 'cpu'

V, D, TMAX, BOS, EOS = 12, 32, 16, 0, 1


class TinyLM(nn.Module):
    def __init__(self):
        super().__init__()
        self.tok = nn.Embedding(V, D)
        self.pos = nn.Embedding(TMAX, D)
        self.qkv = nn.Linear(D, 3 * D)
        self.proj = nn.Linear(D, D)
        self.ff = nn.Sequential(nn.Linear(D, 64), nn.GELU(), nn.Linear(64, D))
        self.ln1 = nn.LayerNorm(D)
        self.ln2 = nn.LayerNorm(D)
        self.head = nn.Linear(D, V)

    def block(self, x, k_prev=None, v_prev=None, mask=None):
        q, k, v = self.qkv(self.ln1(x)).chunk(3, dim=-1)
        if k_prev is not None:
            k = torch.cat([k_prev, k], dim=1)
            v = torch.cat([v_prev, v], dim=1)
        att = q @ k.transpose(1, 2) / math.sqrt(D)
        if mask is not None:
            att = att.masked_fill(mask, float('-inf'))
        x = x + self.proj(att.softmax(-1) @ v)
        x = x + self.ff(self.ln2(x))
        return self.head(x), k, v

    def forward(self, idx, pos, mask=None, k_prev=None, v_prev=None):
        return self.block(self.tok(idx) + self.pos(pos), k_prev, v_prev, mask)


def make_batch(n, gen):
    start = torch.randint(2, 6, (n,), generator=gen)
    length = torch.randint(4, 9, (n,), generator=gen)
    x = torch.full((n, TMAX), EOS)
    x[:, 0] = BOS
    for i in range(n):
        L = int(length[i])
        x[i, 1:L + 1] = (start[i] + torch.arange(L)).clamp(max=V - 1)
    return x


gen = torch.Generator().manual_seed(56)
model = TinyLM().to(device)
opt = torch.optim.AdamW(model.parameters(), lr=3e-3)
T = TMAX - 1
for step in range(120):
    x = make_batch(32, gen).to(device)
    pos = torch.arange(T, device=device).unsqueeze(0)
    mask = torch.triu(torch.ones(T, T, device=device), diagonal=1).bool()
    logits, _, _ = model(x[:, :-1], pos, mask)
    loss = F.cross_entropy(logits.reshape(-1, V), x[:, 1:].reshape(-1))
    opt.zero_grad()
    loss.backward()
    opt.step()
print('train loss', round(loss.item(), 4))

model.eval()
prompts = [[BOS, 3], [BOS, 5, 6], [BOS, 2], [BOS, 4, 5, 6]]


@torch.no_grad()
def decode_full(prompt, n_new):
    seq = list(prompt)
    for _ in range(n_new):
        t = len(seq)
        idx = torch.tensor(seq, device=device).unsqueeze(0)
        pos = torch.arange(t, device=device).unsqueeze(0)
        mask = torch.triu(torch.ones(t, t, device=device), diagonal=1).bool()
        logits, _, _ = model(idx, pos, mask)
        nxt = logits[0, -1].argmax().item()
        seq.append(nxt)
        if nxt == EOS:
            break
    return seq


@torch.no_grad()
def decode_cached(prompt, n_new, window=0, strength=1.5):
    t0 = len(prompt)
    idx = torch.tensor(prompt, device=device).unsqueeze(0)
    pos = torch.arange(t0, device=device).unsqueeze(0)
    mask = torch.triu(torch.ones(t0, t0, device=device), diagonal=1).bool()
    logits, k, v = model(idx, pos, mask)
    seq = list(prompt)
    last = logits[0, -1]
    for t in range(t0, min(t0 + n_new, TMAX)):
        penalty = torch.ones(V, device=device)
        if window:
            # discourage simply continuing the recent run (successors of the last tokens)
            recent = torch.tensor(seq[-window:], device=device)
            penalty[(recent + 1).clamp(max=V - 1)] = strength
        scores = torch.where(last > 0, last / penalty, last * penalty)
        nxt = int(scores.argmax())
        seq.append(nxt)
        if nxt == EOS or t + 1 >= TMAX:
            break
        step_pos = torch.tensor([[t]], device=device)
        logits, k, v = model(torch.tensor([[nxt]], device=device), step_pos, None, k, v)
        last = logits[0, -1]
    return seq, k.shape[1]


results = []
for p in prompts:
    full = decode_full(p, 10)
    cached, cache_len = decode_cached(p, 10)
    pen, _ = decode_cached(p, 10, window=2, strength=4.0)
    results.append((full, cached, pen, cache_len))
    print(p, '->', full, cached == full, pen, cache_len)

checksum = sum(sum((i + 1) * tok for i, tok in enumerate(r[0] + r[2])) + r[3] for r in results)
print('checksum', checksum)
