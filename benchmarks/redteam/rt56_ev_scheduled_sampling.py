# corpus: runnable
# Red team 56 (blind): a GRU encoder-decoder that learns to sort short digit strings, trained with scheduled
# sampling (each decoder step feeds the model's own previous prediction with a probability decided by
# random.random(), the ratio annealed per epoch), then fine-tuned self-critically: a greedy decode under no_grad is
# the baseline, a sampled decode in eval mode (dropout off) gives the log-probs whose REINFORCE loss is added to a
# teacher-forced loss. Evaluation decodes with the model in eval mode and puts it back in train mode.
import random

import torch
import torch.nn as nn
import torch.nn.functional as F

random.seed(5604)
torch.manual_seed(5604)
torch.set_num_threads(1)
device = 'cuda' if torch.cuda.is_available() else 'cpu'

V, BOS, L = 8, 0, 5
g = torch.Generator().manual_seed(564)


class Sorter(nn.Module):
    def __init__(self):
        super().__init__()
        self.emb = nn.Embedding(V + 1, 16)
        self.enc = nn.GRU(16, 32, batch_first=True)
        self.cell = nn.GRUCell(16, 32)
        self.drop = nn.Dropout(0.3)
        self.out = nn.Linear(32, V + 1)

    def encode(self, src):
        return self.enc(self.emb(src))[1][0]

    def step(self, tok, h):
        h = self.cell(self.emb(tok), h)
        return self.out(self.drop(h)), h


def batch(n):
    src = torch.randint(1, V + 1, (n, L), generator=g)
    return src, src.sort(1).values


def train_step(model, src, tgt, ratio):
    h = model.encode(src)
    tok = torch.full((src.shape[0],), BOS, device=src.device)
    loss = 0.0
    for t in range(L):
        logits, h = model.step(tok, h)
        loss = loss + F.cross_entropy(logits, tgt[:, t])
        if random.random() < ratio:
            tok = logits.argmax(-1)
        else:
            tok = tgt[:, t]
    return loss / L


def rollout(model, src, greedy):
    model.eval()
    h = model.encode(src)
    tok = torch.full((src.shape[0],), BOS, device=src.device)
    toks, logps = [], []
    for t in range(L):
        logits, h = model.step(tok, h)
        dist = logits.log_softmax(-1)
        if greedy:
            tok = dist.argmax(-1)
        else:
            tok = torch.multinomial(dist.exp().cpu(), 1, generator=g).squeeze(1).to(src.device)
        toks.append(tok)
        logps.append(dist.gather(1, tok[:, None]).squeeze(1))
    model.train()
    return torch.stack(toks, 1), torch.stack(logps, 1).sum(1)


def reward(pred, tgt):
    return (pred == tgt).float().mean(1)


def accuracy(model, n=200):
    src, tgt = batch(n)
    src, tgt = src.to(device), tgt.to(device)
    with torch.no_grad():
        pred, _ = rollout(model, src, greedy=True)
    return (pred == tgt).all(1).float().mean().item()


model = Sorter().to(device)
opt = torch.optim.Adam(model.parameters(), lr=5e-3)
history = []
for epoch in range(6):
    ratio = min(0.5, 0.1 * epoch)
    total = 0.0
    for it in range(30):
        src, tgt = batch(32)
        loss = train_step(model, src.to(device), tgt.to(device), ratio)
        opt.zero_grad()
        loss.backward()
        opt.step()
        total += loss.item()
    history.append((round(total / 30, 4), accuracy(model)))
print('scheduled', history)

sc_hist = []
for it in range(40):
    src, tgt = batch(32)
    src, tgt = src.to(device), tgt.to(device)
    with torch.no_grad():
        base, _ = rollout(model, src, greedy=True)
    sampled, logp = rollout(model, src, greedy=False)
    adv = reward(sampled, tgt) - reward(base, tgt)
    sc_loss = -(adv * logp).mean()
    tf_loss = train_step(model, src, tgt, 0.0)
    loss = tf_loss + 0.5 * sc_loss
    opt.zero_grad()
    loss.backward()
    opt.step()
    sc_hist.append(round(sc_loss.item(), 5))
final = accuracy(model)
print('self-critical', sc_hist[-5:], final)
print('checksum', round(sum(a + b for a, b in history) + sum(sc_hist) + final, 5))
