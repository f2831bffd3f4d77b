# corpus: runnable
# Red team 54 (blind): a tiny GRU encoder-decoder that learns to reverse digit strings, then self-critical
# fine-tuning: the greedy decode is the baseline, sampled decodes (drawn with multinomial on a CPU generator,
# the model kept in eval mode so dropout is off) give log-probs whose REINFORCE loss is back-propagated after
# the sampling loop. Decoding stops when the token read equals EOS. A small beam search ranks hypotheses with
# sorted(key=...) over tensor scores.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(5406)
torch.set_num_threads(1)
device = 'cuda' if torch.cuda.is_available() else 'cpu'

g = torch.Generator().manual_seed(546)
V, BOS, EOS, L = 8, 0, 1, 5


class Seq2Seq(nn.Module):
    def __init__(self):
        super().__init__()
        self.emb = nn.Embedding(V, 16)
        self.enc = nn.GRU(16, 24, batch_first=True)
        self.dec = nn.GRUCell(16, 24)
        self.drop = nn.Dropout(0.2)
        self.out = nn.Linear(24, V)

    def encode(self, src):
        _, h = self.enc(self.emb(src))
        return h[0]

    def step(self, tok, h):
        h = self.dec(self.drop(self.emb(tok)), h)
        return F.log_softmax(self.out(h), -1), h


def make_batch(n):
    src = torch.randint(2, V, (n, L), generator=g)
    tgt = torch.cat([src.flip(1), torch.full((n, 1), EOS)], 1)
    return src, tgt


def greedy(model, src):
    h = model.encode(src)
    tok = torch.full((src.shape[0],), BOS, dtype=torch.long, device=src.device)
    outs = []
    for t in range(L + 2):
        lp, h = model.step(tok, h)
        tok = lp.argmax(-1)
        outs.append(tok)
        if (tok == EOS).all().item():
            break
    return torch.stack(outs, 1)


def reward(seq, tgt):
    n = min(seq.shape[1], tgt.shape[1])
    return (seq[:, :n] == tgt[:, :n]).float().mean(1)


model = Seq2Seq().to(device)
opt = torch.optim.Adam(model.parameters(), lr=0.02)
for it in range(60):
    src, tgt = make_batch(32)
    src, tgt = src.to(device), tgt.to(device)
    h = model.encode(src)
    tok = torch.full((32,), BOS, dtype=torch.long, device=device)
    loss = 0.0
    for t in range(tgt.shape[1]):
        lp, h = model.step(tok, h)
        loss = loss + F.nll_loss(lp, tgt[:, t])
        tok = tgt[:, t]
    opt.zero_grad()
    loss.backward()
    opt.step()
    if it % 20 == 0:
        print('xent', it, f'{loss.item():.8f}')

model.eval()
rl_log = []
for it in range(4):
    src, tgt = make_batch(16)
    src, tgt = src.to(device), tgt.to(device)
    with torch.no_grad():
        base = reward(greedy(model, src), tgt)
    logps, rewards = [], []
    for k in range(3):
        h = model.encode(src)
        tok = torch.full((16,), BOS, dtype=torch.long, device=device)
        seq, lp_sum = [], torch.zeros(16, device=device)
        for t in range(L + 1):
            lp, h = model.step(tok, h)
            tok = torch.multinomial(lp.exp().cpu(), 1, generator=g).squeeze(1).to(device)
            lp_sum = lp_sum + lp.gather(1, tok[:, None]).squeeze(1)
            seq.append(tok)
        logps.append(lp_sum)
        rewards.append(reward(torch.stack(seq, 1), tgt))
    adv = torch.stack(rewards) - base
    rl = -(adv * torch.stack(logps)).mean()
    opt.zero_grad()
    rl.backward()
    opt.step()
    rl_log.append(round(rl.item(), 6))
print('rl', rl_log)

src, tgt = make_batch(1)
src = src.to(device)
with torch.no_grad():
    beams = [([BOS], torch.zeros(()), model.encode(src))]
    done = []
    for t in range(L + 2):
        cand = []
        for toks, score, h in beams:
            if toks[-1] == EOS:
                done.append((toks, score))
                continue
            lp, h2 = model.step(torch.tensor([toks[-1]], device=device), h)
            top = lp[0].topk(3)
            for v, i in zip(top.values, top.indices):
                cand.append((toks + [int(i)], score + v.cpu(), h2))
        beams = sorted(cand, key=lambda c: c[1], reverse=True)[:3]
        if not beams:
            break
    done += [(b[0], b[1]) for b in beams]
    best = max(done, key=lambda d: d[1] / len(d[0]))
print('src', src.tolist(), 'best', best[0], f'{best[1].item():.6f}')
with torch.no_grad():
    s2, t2 = make_batch(64)
    acc = reward(greedy(model, s2.to(device)), t2.to(device)).mean().item()
print('checksum', f'{acc:.8f}', f'{sum(rl_log):.6f}')
