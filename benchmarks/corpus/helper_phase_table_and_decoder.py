# corpus: runnable
"""Written for public_check3: the idioms of three tutorials in one small program (loaders kept in
a dict and iterated per phase, an LSTM tagger whose state lives on the module, a greedy decoder
that rebuilds its next input from the top-k indices row by row)."""
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset

torch.manual_seed(0)
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")

splits = ["train", "val"]
tables = {s: TensorDataset(torch.randn(64, 8), torch.randint(0, 4, (64,))) for s in splits}
loaders = {s: DataLoader(tables[s], batch_size=16, shuffle=(s == "train")) for s in splits}  # paef: ok pageable-transfer
net = nn.Sequential(nn.Linear(8, 16), nn.ReLU(), nn.Linear(16, 4)).to(device)
opt = torch.optim.SGD(net.parameters(), lr=0.1)

for epoch in range(2):
    for phase in splits:
        net.train(phase == "train")
        running = 0.0
        for xb, yb in loaders[phase]:
            xb, yb = xb.to(device), yb.to(device)
            with torch.set_grad_enabled(phase == "train"):
                loss = nn.functional.cross_entropy(net(xb), yb)
                if phase == "train":
                    opt.zero_grad()
                    loss.backward()
                    opt.step()
            running += loss.item() * xb.size(0)  # paef: expect-fix host-sync
        print(epoch, phase, round(running / 64, 4))


class Tagger(nn.Module):
    def __init__(self, vocab, dim, tags):
        super().__init__()
        self.dim = dim
        self.embed = nn.Embedding(vocab, dim)
        self.lstm = nn.LSTM(dim, dim)
        self.out = nn.Linear(dim, tags)
        self.state = self.blank()

    def blank(self):
        return (torch.zeros(1, 1, self.dim), torch.zeros(1, 1, self.dim))

    def forward(self, words):
        seq, self.state = self.lstm(self.embed(words).view(len(words), 1, -1), self.state)
        return self.out(seq.view(len(words), -1))


tagger = Tagger(10, 6, 3)
tag_opt = torch.optim.SGD(tagger.parameters(), lr=0.1)
sentences = [(torch.randint(0, 10, (5,)), torch.randint(0, 3, (5,))) for _ in range(4)]
for epoch in range(3):
    for words, tags in sentences:
        tagger.zero_grad()
        tagger.state = tagger.blank()
        loss = nn.functional.cross_entropy(tagger(words), tags)
        loss.backward()
        tag_opt.step()
print(round(loss.item(), 4))

decoder = nn.Linear(4, 4).to(device)
batch = 3
token = torch.zeros(1, batch, dtype=torch.long, device=device)
emb = nn.Embedding(4, 4).to(device)
with torch.no_grad():
    for step in range(4):
        scores = decoder(emb(token[0]))
        _, top = scores.topk(1)
        token = torch.LongTensor([[top[r][0] for r in range(batch)]])  # paef: expect list-to-tensor
        token = token.to(device)
print(token.tolist())
