# corpus: runnable
# Red team 56 probe (NOT blind): per-prompt tensors built from constants inside the prompt loop that a callee
# keeps and changes later: a start token stored on the decoder and overwritten in place by its step, a count
# vector handed to a penalty helper that increments it, a preallocated cache handed to the model (kept on self,
# written at position t, and pooled over its whole length), a "done" mask marked through a dict of helpers.
import torch
import torch.nn as nn

torch.manual_seed(5622)
torch.set_num_threads(1)
device = 'cuda' if torch.cuda.is_available() else 'cpu'
V, D, TMAX, BOS = 7, 6, 8, 0


class Decoder(nn.Module):
    def __init__(self):
        super().__init__()
        self.emb = nn.Embedding(V, D)
        self.lin = nn.Linear(2 * D, V)
        self.prev = None
        self.cache = None

    def begin(self, start, cache):
        self.prev = start
        self.cache = cache

    def step(self, t):
        e = self.emb(self.prev).view(-1)
        self.cache[t] = e
        summary = self.cache.mean(0)
        logits = self.lin(torch.cat([e, summary]))
        self.prev.copy_(logits.argmax().view(1, 1))
        return logits


def penalize(logits, counts, strength=0.8):
    out = logits - strength * counts
    counts[out.argmax()] += 1
    return out


def mark(done, t):
    done[t] = False


helpers = {'mark': mark}
dec = Decoder().to(device)
results = []
with torch.no_grad():
    for p, n_steps in enumerate([5, 3, 4, 2]):
        start = torch.tensor([[BOS]], device=device)
        counts = torch.zeros(V, device=device)
        cache = torch.zeros(TMAX, D, device=device)
        live = torch.ones(TMAX, dtype=torch.bool, device=device)
        dec.begin(start, cache)
        toks = []
        for t in range(n_steps):
            logits = penalize(dec.step(t), counts)
            helpers['mark'](live, t)
            toks.append(int(logits.argmax()))
        results.append((toks, int(start.item()), counts.tolist(), int(live.sum()), round(cache.sum().item(), 4)))
        print(p, results[-1])
print('checksum', round(sum(sum(t) + s + sum(c) * 3 + l * 5 + cs for t, s, c, l, cs in results), 4))
