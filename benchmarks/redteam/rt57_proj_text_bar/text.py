"""A word tokenizer and vocabulary built once; sentences made up from a seeded grammar."""
import random

POS = ['good', 'great', 'fine', 'lovely', 'neat']
NEG = ['bad', 'awful', 'poor', 'dull', 'grim']
FILL = ['the', 'movie', 'was', 'quite', 'plot', 'and', 'acting', 'very', 'a', 'story']


def corpus(n, seed):
    rng = random.Random(seed)
    out = []
    for _ in range(n):
        label = rng.random() < 0.5
        words = [rng.choice(FILL) for _ in range(rng.randint(3, 9))]
        for _ in range(rng.randint(1, 3)):
            words.insert(rng.randrange(len(words) + 1), rng.choice(POS if label else NEG))
        if rng.random() < 0.15:
            words.insert(0, rng.choice(NEG if label else POS))
        out.append((' '.join(words), int(label)))
    return out


def tokenize(s):
    return s.lower().split()


class Vocab:
    def __init__(self, texts, min_count=1):
        counts = {}
        for t in texts:
            for w in tokenize(t):
                counts[w] = counts.get(w, 0) + 1
        self.itos = ['<pad>', '<unk>'] + sorted(w for w, c in counts.items() if c >= min_count)
        self.stoi = {w: i for i, w in enumerate(self.itos)}

    def __len__(self):
        return len(self.itos)

    def encode_batch(self, texts):
        ids = [[self.stoi.get(w, 1) for w in tokenize(t)] for t in texts]
        width = max(len(x) for x in ids)
        return [x + [0] * (width - len(x)) for x in ids], [len(x) for x in ids]
