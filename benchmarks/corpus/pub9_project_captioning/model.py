"""An encoder/decoder pair in its own module, as image-captioning tutorials split them."""
import torch
import torch.nn as nn


class Encoder(nn.Module):
    def __init__(self, n_in, n_embed):
        super().__init__()
        self.proj = nn.Linear(n_in, n_embed)
        self.norm = nn.BatchNorm1d(n_embed)

    def forward(self, images):
        return self.norm(self.proj(images.flatten(1)))


class Decoder(nn.Module):
    def __init__(self, n_embed, n_hidden, vocab):
        super().__init__()
        self.embed = nn.Embedding(vocab, n_embed)
        self.rnn = nn.GRU(n_embed, n_hidden, batch_first=True)
        self.out = nn.Linear(n_hidden, vocab)

    def forward(self, features, captions):
        seq = torch.cat((features.unsqueeze(1), self.embed(captions[:, :-1])), 1)
        hidden, _ = self.rnn(seq)
        return self.out(hidden)

    def greedy(self, features, steps=5):
        words = []
        inputs, state = features.unsqueeze(1), None
        for i in range(steps):
            hidden, state = self.rnn(inputs, state)
            best = self.out(hidden.squeeze(1)).argmax(1)
            words.append(best)
            inputs = self.embed(best)
            inputs = inputs.unsqueeze(1)
        return torch.stack(words, 1)
