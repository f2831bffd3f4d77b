# corpus: runnable
"""Character-level GRU language model that prints perplexity every batch."""
import math

import torch
import torch.nn as nn

torch.manual_seed(0)
device = "cuda" if torch.cuda.is_available() else "cpu"
text = "the quick brown fox jumps over the lazy dog " * 12
chars = sorted(set(text))
stoi = {c: i for i, c in enumerate(chars)}
data = torch.tensor([stoi[c] for c in text], device=device)
V, H, seq_len, bsz = len(chars), 32, 10, 4


class CharRNN(nn.Module):
    def __init__(self):
        super().__init__()
        self.emb, self.rnn, self.fc = nn.Embedding(V, 16), nn.GRU(16, H, batch_first=True), nn.Linear(H, V)

    def forward(self, x, h):
        out, h = self.rnn(self.emb(x), h)
        return self.fc(out), h

    def init_hidden(self, n):
        return torch.zeros(1, n, H, device=device)


model = CharRNN().to(device)
opt = torch.optim.Adam(model.parameters(), lr=1e-2)
crit = nn.CrossEntropyLoss()
n_chunks = (len(data) - 1) // (seq_len * bsz)
for epoch in range(2):
    hidden = model.init_hidden(bsz)
    for c in range(n_chunks):
        start = c * seq_len * bsz
        x = data[start : start + seq_len * bsz].view(bsz, seq_len)
        y = data[start + 1 : start + 1 + seq_len * bsz].view(bsz, seq_len)
        hidden = hidden.detach()
        logits, hidden = model(x, hidden)
        loss = crit(logits.reshape(-1, V), y.reshape(-1))
        opt.zero_grad()
        loss.backward()
        nn.utils.clip_grad_norm_(model.parameters(), 5.0)
        opt.step()
        ppl = math.exp(loss.item())  # paef: expect host-sync
    print(f"epoch {epoch} ppl {ppl:.3f}")
