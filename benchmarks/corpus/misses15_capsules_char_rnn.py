# corpus: runnable
"""A capsule-network classifier whose reconstruction head takes each sample's most active capsule,
gathered one sample at a time into a list then stacked, and a character-level RNN whose encoder
fills its input tensor one character at a time from `string.printable`."""
import string

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_num_threads(1)
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")


class CapsuleNet(nn.Module):
    def __init__(self, n_caps=6, dim=8):
        super().__init__()
        self.n_caps, self.dim = n_caps, dim
        self.primary = nn.Linear(12, n_caps * dim)
        self.decoder = nn.Sequential(nn.Linear(dim, 16), nn.ReLU(), nn.Linear(16, 12))

    def forward(self, x, y=None):
        x = self.primary(x).view(-1, self.n_caps, self.dim)
        classes = F.softmax((x ** 2).sum(dim=-1) ** 0.5, dim=-1)
        if y is None:
            _, max_length_indices = classes.max(dim=1)
        else:
            _, max_length_indices = y.max(dim=1)
        vectors = []
        for batch, index in enumerate(max_length_indices):  # paef: expect elementwise-loop
            vectors.append(x[batch, index.item(), :])  # paef: expect host-sync
        reconstructions = self.decoder(torch.stack(vectors, dim=0))
        return classes, reconstructions


def capsules(steps=12):
    model = CapsuleNet().to(device)
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-2)
    data = torch.randn(64, 12)
    labels = (data[:, :6].argmax(1))
    for step in range(steps):
        idx = torch.arange(step * 16, step * 16 + 16) % 64
        images = data[idx].to(device)  # paef: ok pageable-transfer
        onehot = F.one_hot(labels[idx], 6).float().to(device)  # paef: ok cpu-then-move; ok pageable-transfer
        classes, recon = model(images, onehot)
        loss = F.mse_loss(recon, images) + F.cross_entropy(classes, labels[idx].to(device))  # paef: ok pageable-transfer
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    print(f"capsules loss {loss.item():.4f}")


all_characters = string.printable
n_characters = len(all_characters)
text = "the quick brown fox jumps over the lazy dog " * 8


def char_tensor(s):
    tensor = torch.zeros(len(s)).long()
    for c in range(len(s)):  # paef: expect elementwise-loop
        tensor[c] = all_characters.index(s[c])
    return tensor


class CharRNN(nn.Module):
    def __init__(self, hidden=32):
        super().__init__()
        self.encoder = nn.Embedding(n_characters, hidden)
        self.gru = nn.GRU(hidden, hidden, batch_first=True)
        self.decoder = nn.Linear(hidden, n_characters)

    def forward(self, inp):
        out, _ = self.gru(self.encoder(inp))
        return self.decoder(out)


def char_rnn(steps=10, chunk_len=24):
    model = CharRNN()
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-2)
    g = torch.Generator().manual_seed(1)
    for step in range(steps):
        start = int(torch.randint(0, len(text) - chunk_len - 1, (1,), generator=g))
        chunk = text[start:start + chunk_len + 1]
        inp = char_tensor(chunk[:-1]).unsqueeze(0)
        target = char_tensor(chunk[1:]).unsqueeze(0)
        loss = F.cross_entropy(model(inp).view(-1, n_characters), target.view(-1))
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    print(f"char-rnn loss {loss.item():.4f}")


capsules()
char_rnn()
