# corpus: runnable
"""Show-and-tell-style captioning on synthetic "images" (a colour and a shape code): a
linear image encoder, an LSTM decoder with teacher forcing over packed padded captions, the
vocabulary lookup done per batch from the raw caption strings, and greedy decoding that stops
at <end> for the validation captions."""
import random

import torch
import torch.nn as nn
from torch.nn.utils.rnn import pack_padded_sequence, pad_sequence

random.seed(0)
torch.manual_seed(0)
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
COLOURS, SHAPES = ["red", "green", "blue"], ["circle", "square", "star", "triangle"]
WORDS = ["<pad>", "<start>", "<end>", "a", "big", "small"] + COLOURS + SHAPES
vocab = {w: i for i, w in enumerate(WORDS)}


def make_example():
    c, s, big = random.randrange(3), random.randrange(4), random.random() < 0.5
    img = torch.zeros(10)
    img[c], img[3 + s], img[7] = 1.0, 1.0, float(big)
    words = ["a"] + (["big"] if big else ["small"]) * random.randint(0, 1) + [COLOURS[c], SHAPES[s]]
    return img + 0.05 * torch.randn(10), " ".join(words)


def encode_captions(captions):
    seqs = [torch.tensor([vocab["<start>"]] + [vocab[w] for w in c.split()] + [vocab["<end>"]]) for c in captions]
    lengths = [len(s) for s in seqs]
    return pad_sequence(seqs, batch_first=True), lengths


class Captioner(nn.Module):
    def __init__(self, emb=24, hidden=48):
        super().__init__()
        self.enc = nn.Linear(10, emb)
        self.embed = nn.Embedding(len(WORDS), emb, padding_idx=0)
        self.lstm = nn.LSTM(emb, hidden, batch_first=True)
        self.out = nn.Linear(hidden, len(WORDS))

    def forward(self, images, captions, lengths):
        inputs = torch.cat([self.enc(images).unsqueeze(1), self.embed(captions[:, :-1])], 1)
        packed = pack_padded_sequence(inputs, lengths, batch_first=True, enforce_sorted=False)
        hiddens, _ = self.lstm(packed)
        return self.out(hiddens.data)

    def greedy(self, image, max_len=8):
        x, state, words = self.enc(image).view(1, 1, -1), None, []
        for _ in range(max_len):
            h, state = self.lstm(x, state)
            word = self.out(h[:, -1]).argmax(-1)
            if word.item() == vocab["<end>"]:  # paef: ok host-sync
                break
            words.append(WORDS[word.item()])  # paef: ok host-sync
            x = self.embed(word).unsqueeze(1)
        return " ".join(words)


train = [make_example() for _ in range(320)]
val = [make_example() for _ in range(12)]
model = Captioner().to(device)
optimizer = torch.optim.Adam(model.parameters(), lr=5e-3)
criterion = nn.CrossEntropyLoss()
for epoch in range(4):
    random.shuffle(train)
    total = 0.0
    for i in range(0, len(train), 32):
        images = torch.stack([img for img, _ in train[i : i + 32]]).to(device)  # paef: ok list-to-tensor; ok cpu-then-move; ok pageable-transfer
        captions, lengths = encode_captions([c for _, c in train[i : i + 32]])  # paef: expect cpu-function
        captions = captions.to(device)
        targets = pack_padded_sequence(captions, lengths, batch_first=True, enforce_sorted=False).data
        loss = criterion(model(images, captions, lengths), targets)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        total += loss.item()  # paef: expect host-sync
    print(f"epoch {epoch} loss {total / 10:.4f}")
model.eval()
with torch.no_grad():
    hits = sum(model.greedy(img.to(device)) == cap for img, cap in val)
print(f"exact captions {hits}/{len(val)}; e.g. {model.greedy(val[0][0].to(device))!r} vs {val[0][1]!r}")
