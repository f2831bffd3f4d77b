# corpus: runnable
# Red team 56 (blind): a fixed-context MLP language model (the last 3 tokens predict the next) over a toy
# grammar, then generation that keeps everything in Python lists: the token list grows each step and the
# context tensor is rebuilt from its tail, per-step log-probabilities are Python floats (math.log of a read
# probability, summed in double precision), generated prefixes are memoised in a dict keyed by tuples, and the
# finished sequences are padded into one tensor for scoring.
import math

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.nn.utils.rnn import pad_sequence

torch.manual_seed(5603)
torch.set_num_threads(1)
device = 'cuda' if torch.cuda.is_available() else 'cpu'

PAD, BOS, EOS, V, CTX = 0, 1, 2, 10, 3
g = torch.Generator().manual_seed(563)


def sentence():
    n = int(torch.randint(2, 6, (1,), generator=g))
    body = []
    for k in range(n):
        body.append(3 + (k * 2 + int(torch.randint(0, 2, (1,), generator=g))) % (V - 3))
    return [BOS] * CTX + body + [EOS]


corpus = [sentence() for _ in range(200)]
xs, ys = [], []
for s in corpus:
    for i in range(CTX, len(s)):
        xs.append(s[i - CTX:i])
        ys.append(s[i])
X = torch.tensor(xs)
Y = torch.tensor(ys)


class MLPLM(nn.Module):
    def __init__(self):
        super().__init__()
        self.emb = nn.Embedding(V, 8)
        self.net = nn.Sequential(nn.Linear(CTX * 8, 64), nn.Tanh(), nn.Linear(64, V))

    def forward(self, ctx):
        return self.net(self.emb(ctx).flatten(-2))


model = MLPLM().to(device)
opt = torch.optim.SGD(model.parameters(), lr=0.3, momentum=0.9)
for epoch in range(40):
    perm = torch.randperm(len(X), generator=g)
    for b in range(0, len(X), 128):
        idx = perm[b:b + 128]
        loss = F.cross_entropy(model(X[idx].to(device)), Y[idx].to(device))
        opt.zero_grad()
        loss.backward()
        opt.step()
print('loss', round(loss.item(), 4))

memo = {}


def generate(prefix, max_new=8, temperature=1.0):
    tokens = [BOS] * CTX + list(prefix)
    logps = []
    dists = []
    for _ in range(max_new):
        key = tuple(tokens[-CTX:])
        if key not in memo:
            with torch.no_grad():
                ctx = torch.tensor(tokens[-CTX:], device=device)
                memo[key] = (model(ctx.unsqueeze(0))[0] / temperature).softmax(-1).cpu()
        probs = memo[key]
        dists.append(probs)
        nxt = int(torch.multinomial(probs, 1, generator=g))
        logps.append(math.log(probs[nxt].item()))
        tokens.append(nxt)
        if nxt == EOS:
            break
    return tokens[CTX:], logps, dists


outputs = []
for prefix in [[3], [4], [3, 5], [], [4, 6, 7]]:
    toks, logps, dists = generate(prefix)
    lp_tensor = torch.tensor(logps, dtype=torch.float64)
    ent = torch.stack(dists).clamp_min(1e-12)
    ent = -(ent * ent.log()).sum(-1).mean().item()
    outputs.append((toks, sum(logps), lp_tensor.mean().item(), ent))
    print(toks, round(sum(logps), 6), round(ent, 5))

padded = pad_sequence([torch.tensor(t) for t, *_ in outputs], batch_first=True, padding_value=PAD).to(device)
with torch.no_grad():
    ctx = torch.cat([torch.full((padded.shape[0], CTX), BOS, device=device), padded], 1)
    windows = ctx.unfold(1, CTX, 1)[:, :-1]
    scores = F.log_softmax(model(windows), -1).gather(-1, ctx[:, CTX:, None]).squeeze(-1)
    scores = (scores * (padded != PAD)).sum(1)
print('rescored', [round(s, 4) for s in scores.tolist()], 'memo', len(memo))
checksum = sum(o[1] for o in outputs) + sum(o[2] for o in outputs) + sum(o[3] for o in outputs)
checksum += scores.sum().item() + int(padded.sum()) + len(memo)
print('checksum', round(checksum, 6))
