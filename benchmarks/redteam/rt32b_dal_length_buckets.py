# corpus: runnable
# Red team 32b, wave 1 (blind): a text classifier fed from a dict of Python lists. The sentences
# are sorted by length and cut into batches of two, so every batch of token ids is rectangular
# even though the column as a whole is not (the lengths differ between batches); the `len`
# column and the labels are plain numbers. Batches are converted with `torch.tensor` per step.
import torch
import torch.nn.functional as F
from torch import nn

torch.set_num_threads(1)
torch.manual_seed(8)
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
TEXTS = ["a good film", "bad", "not bad at all", "great", "so so", "awful plot twist here", "loved it", "not my taste"]
LABELS = [1, 0, 1, 1, 0, 0, 1, 0]
VOCAB = {w: i + 1 for i, w in enumerate(sorted({w for t in TEXTS for w in t.split()}))}


def encode(text):
    return [VOCAB[w] for w in text.split()]


order = sorted(range(len(TEXTS)), key=lambda i: len(TEXTS[i].split()))
data = {
    "ids": [encode(TEXTS[i]) for i in order],
    "len": [len(TEXTS[i].split()) for i in order],
    "y": [LABELS[i] for i in order],
}


class Bag(nn.Module):
    def __init__(self):
        super().__init__()
        self.emb = nn.EmbeddingBag(len(VOCAB) + 1, 8, mode="mean")
        self.out = nn.Linear(8, 2)

    def forward(self, ids):
        return self.out(self.emb(ids))


model = Bag().to(device)
opt = torch.optim.Adam(model.parameters(), lr=0.05)
for epoch in range(3):
    total = 0.0
    for s in range(0, len(order), 2):
        ids = torch.tensor(data["ids"][s : s + 2]).to(device)
        y = torch.tensor(data["y"][s : s + 2]).to(device)
        n = torch.tensor(data["len"][s : s + 2]).to(device)
        loss = F.cross_entropy(model(ids), y) * n.float().mean() / 4
        opt.zero_grad()
        loss.backward()
        opt.step()
        total += loss.item()
    print(f"epoch {epoch} total {total:.6f}")
