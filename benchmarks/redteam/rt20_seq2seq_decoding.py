# corpus: runnable
# A GRU encoder-decoder on a toy copy task: teacher forcing chosen by `random.random()` per
# batch, greedy decoding that stops on EOS via `.item()`, a beam search with `heapq` whose scores
# are Python floats, and a BLEU-like token accuracy tally in evaluation.
import heapq
import random

import torch
import torch.nn.functional as F
from torch import nn

torch.set_num_threads(1)
torch.manual_seed(5)
random.seed(5)
device = "cuda" if torch.cuda.is_available() else "cpu"
V, H, BOS, EOS, L = 8, 16, 0, 1, 5


class Seq2Seq(nn.Module):
    def __init__(self):
        super().__init__()
        self.emb = nn.Embedding(V, H)
        self.enc = nn.GRU(H, H, batch_first=True)
        self.dec = nn.GRUCell(H, H)
        self.out = nn.Linear(H, V)

    def encode(self, src):
        _, h = self.enc(self.emb(src))
        return h[0]

    def step(self, tok, h):
        h = self.dec(self.emb(tok), h)
        return F.log_softmax(self.out(h), -1), h


model = Seq2Seq().to(device)
opt = torch.optim.Adam(model.parameters(), lr=1e-2)
data = [torch.randint(2, V, (4, L)) for _ in range(8)]

total = 0.0
tf_used = 0
for epoch in range(3):
    for src in data:
        src = src.to(device)
        h = model.encode(src)
        tok = torch.full((src.size(0),), BOS, dtype=torch.long, device=device)
        teacher = random.random() < 0.5
        tf_used += teacher
        loss = 0
        for t in range(L):
            logp, h = model.step(tok, h)
            loss = loss + F.nll_loss(logp, src[:, t])
            tok = src[:, t] if teacher else logp.argmax(-1)
        loss = loss / L
        opt.zero_grad()
        loss.backward()
        opt.step()
        total += loss.item()
print("train", repr(total), tf_used)


def greedy(src):
    h = model.encode(src.unsqueeze(0))
    tok = torch.tensor([BOS], device=device)
    out = []
    score = 0.0
    for _ in range(L + 2):
        logp, h = model.step(tok, h)
        lp, tok = logp.max(-1)
        score += lp.item()
        if tok.item() == EOS:
            break
        out.append(tok.item())
    return out, score


def beam_search(src, k=3):
    h0 = model.encode(src.unsqueeze(0))
    beams = [(0.0, [BOS], h0)]
    done = []
    for _ in range(L + 1):
        cand = []
        for score, seq, h in beams:
            if seq[-1] == EOS:
                done.append((score, seq))
                continue
            logp, h2 = model.step(torch.tensor([seq[-1]], device=device), h)
            top, idx = logp[0].topk(k)
            for lp, i in zip(top.tolist(), idx.tolist()):
                heapq.heappush(cand, (-(score + lp), seq + [i], h2))
        beams = [(-s, q, hh) for s, q, hh in heapq.nsmallest(k, cand, key=lambda c: c[0])]
    done.extend((s, q) for s, q, _ in beams)
    return max(done, key=lambda d: d[0])


model.eval()
acc = 0
n = 0
scores = 0.0
with torch.no_grad():
    for src in data[:3]:
        for row in src.to(device):
            seq, s = greedy(row)
            scores += s
            ref = row.tolist()
            acc += sum(int(a == b) for a, b in zip(seq, ref))
            n += len(ref)
print("greedy", acc, n, repr(scores))

best = []
for src in data[:2]:
    for row in src.to(device):
        s, seq = beam_search(row)
        best.append(s)
print("beam", [round(b, 5) for b in best], type(best[0]).__name__)

# token accuracy without no_grad, counts scattered into a per-token table
hits = torch.zeros(V, dtype=torch.long)
for src in data:
    src = src.to(device)
    h = model.encode(src)
    tok = torch.full((src.size(0),), BOS, dtype=torch.long, device=device)
    for t in range(L):
        logp, h = model.step(tok, h)
        tok = logp.argmax(-1)
        hits.index_put_((src[:, t].cpu(),), (tok == src[:, t]).long().cpu(), accumulate=True)
print("hits", hits.tolist(), logp.requires_grad)
