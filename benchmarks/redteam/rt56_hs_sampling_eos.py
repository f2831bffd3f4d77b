# corpus: runnable
# Red team 56 (blind): a character GRU language model over a few made-up "words", then sampling: temperature,
# top-k and nucleus (top-p) filtering written into the logits in place, a repetition penalty applied to the
# logits of tokens already produced, draws with torch.multinomial on a CPU generator, a stop when the token read
# equals EOS, a running log-probability that also stops a sample early, and batch sampling that stops when every
# row has produced EOS.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(5602)
torch.set_num_threads(1)
device = 'cuda' if torch.cuda.is_available() else 'cpu'

words = ['abba', 'abcab', 'cabbage', 'bead', 'decade', 'faced', 'accede', 'baggage', 'cafe', 'deaf']
chars = sorted(set(''.join(words)))
BOS, EOS = 0, 1
stoi = {c: i + 2 for i, c in enumerate(chars)}
itos = {i: c for c, i in stoi.items()}
V = len(chars) + 2
T = max(len(w) for w in words) + 2
data = torch.full((len(words), T), EOS)
for i, w in enumerate(words):
    data[i, :len(w) + 2] = torch.tensor([BOS] + [stoi[c] for c in w] + [EOS])


class CharLM(nn.Module):
    def __init__(self):
        super().__init__()
        self.emb = nn.Embedding(V, 16)
        self.rnn = nn.GRU(16, 48, batch_first=True)
        self.out = nn.Linear(48, V)

    def forward(self, x, h=None):
        o, h = self.rnn(self.emb(x), h)
        return self.out(o), h


lm = CharLM().to(device)
opt = torch.optim.Adam(lm.parameters(), lr=0.01)
for epoch in range(150):
    x = data.to(device)
    logits, _ = lm(x[:, :-1])
    loss = F.cross_entropy(logits.reshape(-1, V), x[:, 1:].reshape(-1))
    opt.zero_grad()
    loss.backward()
    opt.step()
print('loss', round(loss.item(), 4))
lm.eval()
g = torch.Generator().manual_seed(562)


def filter_logits(logits, top_k=0, top_p=1.0, temperature=1.0):
    logits = logits / temperature
    if top_k:
        kth = torch.topk(logits, top_k).values[..., -1, None]
        logits[logits < kth] = float('-inf')
    if top_p < 1.0:
        sorted_logits, order = torch.sort(logits, descending=True)
        cum = sorted_logits.softmax(-1).cumsum(-1)
        drop = cum > top_p
        drop[..., 1:] = drop[..., :-1].clone()
        drop[..., 0] = False
        logits[..., order[drop]] = float('-inf')
    return logits


@torch.no_grad()
def sample_one(top_k=0, top_p=1.0, temperature=1.0, penalty=1.0, min_logp=-12.0):
    tok = torch.tensor([[BOS]], device=device)
    h = None
    out = []
    logp_total = 0.0
    for _ in range(T + 4):
        logits, h = lm(tok, h)
        logits = logits[0, -1]
        for prev in set(out):
            logits[prev] = logits[prev] / penalty if logits[prev] > 0 else logits[prev] * penalty
        logits = filter_logits(logits, top_k, top_p, temperature)
        probs = logits.softmax(-1)
        nxt = torch.multinomial(probs.cpu(), 1, generator=g)
        logp_total += probs[nxt.item()].log().item()
        if nxt.item() == EOS or logp_total < min_logp:
            break
        out.append(nxt.item())
        tok = nxt.to(device).view(1, 1)
    return ''.join(itos[i] for i in out), logp_total


@torch.no_grad()
def sample_batch(n, temperature):
    tok = torch.full((n, 1), BOS, device=device)
    h = None
    seqs = tok
    entropy_sum = 0.0
    steps = 0
    for _ in range(T + 4):
        logits, h = lm(tok, h)
        probs = (logits[:, -1] / temperature).softmax(-1)
        entropy_sum += -(probs * probs.clamp_min(1e-9).log()).sum().item()
        steps += 1
        tok = torch.multinomial(probs.cpu(), 1, generator=g).to(device)
        seqs = torch.cat([seqs, tok], 1)
        if (seqs == EOS).any(1).all():
            break
    return seqs, entropy_sum / (n * steps)


samples = []
for setting in [dict(top_k=3), dict(top_p=0.8), dict(temperature=0.7, penalty=1.8), dict(temperature=1.5, min_logp=-6.0)]:
    for _ in range(4):
        s, lp = sample_one(**setting)
        samples.append((s, round(lp, 4)))
print(samples)
seqs, ent = sample_batch(6, 1.2)
print(seqs.tolist(), round(ent, 5))
checksum = sum(len(s) * (i + 1) for i, (s, _) in enumerate(samples)) + round(sum(lp for _, lp in samples), 3)
checksum += int(seqs.sum()) + round(ent, 4)
print('checksum', round(checksum, 4))
