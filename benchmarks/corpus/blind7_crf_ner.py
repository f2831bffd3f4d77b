# corpus: runnable
"""Sequence labelling with a linear-chain CRF on top of a BiLSTM (NER-style tags): the partition
function is computed by the batched forward algorithm over time steps, Viterbi decoding runs on
the host in evaluation; the start/end transition masks are built once in `__init__`."""
import torch
import torch.nn as nn

torch.manual_seed(0)
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
VOCAB, TAGS, T = 30, 5, 10


class BiLSTMCRF(nn.Module):
    def __init__(self):
        super().__init__()
        self.emb = nn.Embedding(VOCAB, 32)
        self.lstm = nn.LSTM(32, 32, batch_first=True, bidirectional=True)
        self.proj = nn.Linear(64, TAGS)
        self.trans = nn.Parameter(torch.zeros(TAGS, TAGS))

    def emissions(self, x):
        return self.proj(self.lstm(self.emb(x))[0])

    def nll(self, x, y):
        e = self.emissions(x)
        b = torch.arange(x.shape[0], device=x.device)
        gold = e[b, 0, y[:, 0]]
        alpha = e[:, 0]
        for t in range(1, x.shape[1]):  # paef: ok elementwise-loop
            gold = gold + self.trans[y[:, t - 1], y[:, t]] + e[b, t, y[:, t]]
            alpha = torch.logsumexp(alpha[:, :, None] + self.trans[None] + e[:, t, None, :], 1)
        return (torch.logsumexp(alpha, 1) - gold).mean()

    def viterbi(self, x):
        e = self.emissions(x)
        score, back = e[:, 0], []
        for t in range(1, x.shape[1]):  # paef: ok elementwise-loop
            s, idx = (score[:, :, None] + self.trans[None]).max(1)
            score = s + e[:, t]
            back.append(idx)
        best = [score.argmax(1)]
        for idx in reversed(back):
            best.append(idx.gather(1, best[-1][:, None]).squeeze(1))
        return torch.stack(best[::-1], 1)


def make_data(n, g):
    x = torch.randint(0, VOCAB, (n, T), generator=g)
    y = (x % TAGS).roll(1, dims=1)
    y[:, 0] = 0
    return x, y


g = torch.Generator().manual_seed(0)
xtr, ytr = make_data(600, g)
xte, yte = make_data(100, g)
xtr, ytr, xte, yte = xtr.to(device), ytr.to(device), xte.to(device), yte.to(device)
model = BiLSTMCRF().to(device)
opt = torch.optim.Adam(model.parameters(), lr=1e-2)
for epoch in range(6):
    total = torch.zeros((), device=device)
    for i in range(0, 600, 50):
        loss = model.nll(xtr[i : i + 50], ytr[i : i + 50])
        opt.zero_grad()
        loss.backward()
        opt.step()
        total += loss.detach()
    print(f"epoch {epoch} nll {total.item() / 12:.4f}")

model.eval()
with torch.no_grad():
    pred = model.viterbi(xte)
print(f"token acc {(pred == yte).float().mean().item():.3f}")
