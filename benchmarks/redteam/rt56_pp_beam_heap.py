# corpus: runnable
# Red team 56 (blind): beam search over a small trained GRU language model (sequences of "even then odd" digits)
# with the beams kept in a Python heap of (negative score, tokens tuple, hidden state), scores as Python floats
# read from the log-probabilities, length-normalised ranking, a best score snapshot kept as a tensor while the
# score table is reused in place for the next prompt, and the finished hypotheses moved to the device as one
# tensor for a rescoring pass.
import heapq

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(5605)
torch.set_num_threads(1)
device = 'cuda' if torch.cuda.is_available() else 'cpu'

V, BOS, EOS, PAD = 12, 0, 1, 11
g = torch.Generator().manual_seed(565)


def make_seq():
    n = int(torch.randint(2, 5, (1,), generator=g))
    out = [BOS]
    for _ in range(n):
        out.append(2 + 2 * int(torch.randint(0, 4, (1,), generator=g)))
        out.append(3 + 2 * int(torch.randint(0, 4, (1,), generator=g)))
    return out + [EOS]


seqs = [make_seq() for _ in range(160)]
T = max(map(len, seqs))
data = torch.full((len(seqs), T), PAD)
for i, s in enumerate(seqs):
    data[i, :len(s)] = torch.tensor(s)


class LM(nn.Module):
    def __init__(self):
        super().__init__()
        self.emb = nn.Embedding(V, 16)
        self.rnn = nn.GRU(16, 40, batch_first=True)
        self.out = nn.Linear(40, V)

    def forward(self, x, h=None):
        o, h = self.rnn(self.emb(x), h)
        return self.out(o), h


lm = LM().to(device)
opt = torch.optim.Adam(lm.parameters(), lr=0.01)
for epoch in range(30):
    for b in range(0, len(seqs), 32):
        x = data[b:b + 32].to(device)
        logits, _ = lm(x[:, :-1])
        loss = F.cross_entropy(logits.reshape(-1, V), x[:, 1:].reshape(-1), ignore_index=PAD)
        opt.zero_grad()
        loss.backward()
        opt.step()
print('loss', round(loss.item(), 4))
lm.eval()

score_table = torch.zeros(4, 3, device=device)


@torch.no_grad()
def beam_search(prefix, width=3, max_len=10, alpha=0.7):
    _, h = lm(torch.tensor([prefix], device=device))
    start = torch.tensor([[prefix[-1]]], device=device)
    beams = [(0.0, tuple(prefix), h, start)]
    finished = []
    for step in range(max_len):
        cand = []
        for neg, toks, h, last in beams:
            logits, h2 = lm(last, h)
            lp = F.log_softmax(logits[0, -1], -1)
            top = torch.topk(lp, width)
            for v, i in zip(top.values, top.indices):
                tok = i.item()
                heapq.heappush(cand, (neg - v.item(), toks + (tok,), h2, i.view(1, 1)))
        beams = []
        while cand and len(beams) < width:
            neg, toks, h, last = heapq.heappop(cand)
            if toks[-1] == EOS:
                finished.append((neg / len(toks) ** alpha, toks))
            else:
                beams.append((neg, toks, h, last))
        if not beams:
            break
    finished.sort(key=lambda f: f[0])
    return finished[:width]


results = []
best_scores = []
for p, prefix in enumerate([[BOS], [BOS, 2], [BOS, 4, 5], [BOS, 6, 9, 2]]):
    found = beam_search(prefix)
    for j, (s, toks) in enumerate(found):
        score_table[p % 4, j] = -s
    best = torch.tensor(score_table[p % 4].max().item())
    best_scores.append(best)
    score_table.mul_(0.0)
    results.append(found)
    print(prefix, [(round(s, 4), t) for s, t in found], round(float(best), 4))

hyps = [list(t) for f in results for _, t in f]
width = max(map(len, hyps))
hyp_tensor = torch.tensor([h + [PAD] * (width - len(h)) for h in hyps]).to(device)
with torch.no_grad():
    logits, _ = lm(hyp_tensor[:, :-1])
    lp = F.log_softmax(logits, -1).gather(-1, hyp_tensor[:, 1:, None]).squeeze(-1)
    lp = lp.masked_fill(hyp_tensor[:, 1:] == PAD, 0.0).sum(1)
print('rescored', [round(x, 4) for x in lp.tolist()])
checksum = sum(float(b) for b in best_scores) + lp.sum().item() + int(hyp_tensor.sum())
print('checksum', round(checksum, 5))
