"""A GRU policy over tokens: sampling under inference_mode, and sequence log-probabilities with or without
gradients (the caller decides)."""
import torch
import torch.nn as nn
import torch.nn.functional as F

V, BOS, EOS, PAD = 9, 0, 1, 8


class Policy(nn.Module):
    def __init__(self):
        super().__init__()
        self.emb = nn.Embedding(V, 16)
        self.rnn = nn.GRU(16, 32, batch_first=True)
        self.drop = nn.Dropout(0.1)
        self.out = nn.Linear(32, V)

    def forward(self, x, h=None):
        o, h = self.rnn(self.emb(x), h)
        return self.out(self.drop(o)), h

    @torch.inference_mode()
    def sample(self, n, max_len, gen, temperature=1.0):
        tok = torch.full((n, 1), BOS, device=self.out.weight.device)
        h = None
        seqs = [[] for _ in range(n)]
        alive = [True] * n
        for _ in range(max_len):
            logits, h = self(tok, h)
            probs = (logits[:, -1] / temperature).softmax(-1)
            nxt = torch.multinomial(probs.cpu(), 1, generator=gen)
            for i, t in enumerate(nxt[:, 0].tolist()):
                if alive[i]:
                    seqs[i].append(t)
                    alive[i] = t != EOS
            if not any(alive):
                break
            tok = nxt.to(tok.device)
        return seqs


def sequence_logprob(model, seqs, device):
    """Sum of token log-probabilities of each sequence (model put in eval mode: no dropout noise)."""
    model.eval()
    width = max(len(s) for s in seqs)
    batch = torch.full((len(seqs), width + 1), PAD, device=device)
    batch[:, 0] = BOS
    for i, s in enumerate(seqs):
        batch[i, 1:len(s) + 1] = torch.tensor(s, device=device)
    logits, _ = model(batch[:, :-1])
    lp = F.log_softmax(logits, -1).gather(-1, batch[:, 1:, None].clamp(max=V - 1)).squeeze(-1)
    lp = lp.masked_fill(batch[:, 1:] == PAD, 0.0)
    model.train()
    return lp.sum(1)
