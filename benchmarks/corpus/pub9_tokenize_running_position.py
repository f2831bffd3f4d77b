# corpus: runnable
"""A word-level corpus tokenised into a preallocated LongTensor one element at a time at a
running position (the old language-model tutorials), then a small LSTM trained with truncated
back-propagation over the batched ids."""
import torch
import torch.nn as nn

torch.manual_seed(0)
torch.set_num_threads(1)
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")

TEXT = ["the cat sat on the mat", "the dog sat on the log", "a cat and a dog"] * 4


class Dictionary:
    def __init__(self):
        self.word2idx = {}
        self.idx2word = []

    def add_word(self, word):
        if word not in self.word2idx:
            self.word2idx[word] = len(self.idx2word)
            self.idx2word.append(word)


class Corpus:
    def __init__(self):
        self.dictionary = Dictionary()

    def tokenize(self, lines, batch_size):
        tokens = 0
        for line in lines:
            words = line.split() + ["<eos>"]
            tokens += len(words)
            for word in words:
                self.dictionary.add_word(word)
        ids = torch.LongTensor(tokens)
        token = 0
        for line in lines:  # paef: expect elementwise-loop
            words = line.split() + ["<eos>"]
            for word in words:
                ids[token] = self.dictionary.word2idx[word]
                token += 1
        n = ids.size(0) // batch_size
        return ids[: n * batch_size].view(batch_size, -1)


corpus = Corpus()
ids = corpus.tokenize(TEXT, 4)
vocab = len(corpus.dictionary.idx2word)
embed = nn.Embedding(vocab, 8).to(device)
lstm = nn.LSTM(8, 16, batch_first=True).to(device)
head = nn.Linear(16, vocab).to(device)
params = list(embed.parameters()) + list(lstm.parameters()) + list(head.parameters())
optimizer = torch.optim.Adam(params, lr=1e-2)
seq = 5
for epoch in range(3):
    state = (torch.zeros(1, 4, 16, device=device), torch.zeros(1, 4, 16, device=device))
    for i in range(0, ids.size(1) - seq, seq):
        inputs = ids[:, i:i + seq].to(device)  # paef: ok pageable-transfer
        targets = ids[:, i + 1:i + 1 + seq].to(device)  # paef: ok pageable-transfer
        state = tuple(s.detach() for s in state)
        out, state = lstm(embed(inputs), state)
        loss = nn.functional.cross_entropy(head(out).reshape(-1, vocab), targets.reshape(-1))
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    print(epoch, round(loss.item(), 4))
