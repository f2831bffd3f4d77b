# corpus: runnable
"""A small sequence model trained the way a translation repository does it: `prepare_dataloaders`
returns the train/valid loaders as a tuple, `train` hands the training loader to `train_epoch`,
which moves each batch's parts with `map(lambda x: x.to(device), batch)`. A `Trainer` keeps a
dict literal of loaders on itself (read by key from outside the class), builds a fine-tuning
loader with a method that takes the split, and a `Batches` wrapper re-yields a loader's batches
for a last pass. The dataset tokenises each sentence in `__getitem__`."""
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, Dataset, TensorDataset

torch.manual_seed(0)
torch.set_num_threads(1)
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")

WORDS = "the a cat dog sat ran on in mat park big small red blue".split()
VOCAB = {w: i + 1 for i, w in enumerate(WORDS)}
LEN = 6


def make_pairs(n, seed):
    g = torch.Generator().manual_seed(seed)
    src = torch.randint(1, len(WORDS) + 1, (n, LEN), generator=g)
    return src, src.flip(1)


class Sentences(Dataset):
    """Raw text, tokenised per sample."""

    def __init__(self, n, seed):
        src, _ = make_pairs(n, seed)
        self.lines = [" ".join(WORDS[int(i) - 1] for i in row) for row in src]

    def __len__(self):
        return len(self.lines)

    def __getitem__(self, i):
        ids = [VOCAB.get(w, 0) for w in self.lines[i].split()]
        src = torch.tensor(ids[:LEN])
        return src, src.flip(0)


class Seq2Seq(nn.Module):
    def __init__(self, vocab=len(WORDS) + 1, dim=32):
        super().__init__()
        self.emb = nn.Embedding(vocab, dim)
        self.mix = nn.Linear(LEN * dim, LEN * dim)
        self.out = nn.Linear(dim, vocab)

    def forward(self, src):
        h = self.emb(src).flatten(1)
        h = torch.tanh(self.mix(h)).view(src.size(0), LEN, -1)
        return self.out(h)


def prepare_dataloaders(batch_size):
    train_set = TensorDataset(*make_pairs(256, 1))
    valid_set = TensorDataset(*make_pairs(64, 2))
    train_loader = DataLoader(train_set, batch_size=batch_size, shuffle=True)  # paef: ok pageable-transfer
    valid_loader = DataLoader(valid_set, batch_size=batch_size)  # paef: ok pageable-transfer
    return train_loader, valid_loader


def train_epoch(model, training_data, optimizer):
    model.train()
    total = torch.zeros((), device=device)
    for batch in training_data:
        src, tgt = map(lambda x: x.to(device), batch)
        pred = model(src)
        loss = F.cross_entropy(pred.flatten(0, 1), tgt.flatten())
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        total += loss.detach()
    return total / len(training_data)


def eval_epoch(model, validation_data):
    model.eval()
    correct = torch.zeros((), device=device)
    with torch.no_grad():
        for batch in validation_data:
            src, tgt = map(lambda x: x.to(device), batch)
            correct += (model(src).argmax(-1) == tgt).float().mean()
    return correct / len(validation_data)


def train(model, training_data, validation_data, optimizer, epochs):
    for epoch in range(epochs):
        loss = train_epoch(model, training_data, optimizer)
        acc = eval_epoch(model, validation_data)
    return loss.item(), acc.item()


class Trainer:
    def __init__(self, model, optimizer):
        self.model = model
        self.optimizer = optimizer
        self.loaders = {"text": DataLoader(Sentences(128, 3), batch_size=32, shuffle=True),  # paef: ok pageable-transfer; expect sync-dataloader
                        "held_out": DataLoader(Sentences(32, 4), batch_size=32)}

    def split_loader(self, split, batch_size):
        data = TensorDataset(*make_pairs(64, split))
        return DataLoader(data, batch_size=batch_size, shuffle=True)  # paef: ok pageable-transfer

    def finetune(self, split):
        loader = self.split_loader(split, 16)
        for src, tgt in loader:
            src, tgt = src.to(device), tgt.to(device)
            loss = F.cross_entropy(self.model(src).flatten(0, 1), tgt.flatten())
            self.optimizer.zero_grad()
            loss.backward()
            self.optimizer.step()
        return loss.detach()


def fit_text(trainer, epochs):
    for epoch in range(epochs):
        for src, tgt in trainer.loaders["text"]:
            src, tgt = src.to(device), tgt.to(device)
            loss = F.cross_entropy(trainer.model(src).flatten(0, 1), tgt.flatten())
            trainer.optimizer.zero_grad()
            loss.backward()
            trainer.optimizer.step()
    return loss.detach()


class Batches:
    """Re-yields a loader's batches (a hook point for logging)."""

    def __init__(self, loader):
        self.loader = loader

    def __iter__(self):
        for src, tgt in self.loader:
            yield src, tgt


def last_pass(model, optimizer):
    for src, tgt in Batches(DataLoader(TensorDataset(*make_pairs(128, 5)), batch_size=32, shuffle=True)):  # paef: ok pageable-transfer
        src, tgt = src.to(device), tgt.to(device)
        loss = F.cross_entropy(model(src).flatten(0, 1), tgt.flatten())
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    return loss.detach()


def main():
    model = Seq2Seq().to(device)
    optimizer = torch.optim.Adam(model.parameters(), lr=3e-3)
    training_data, validation_data = prepare_dataloaders(32)
    loss, acc = train(model, training_data, validation_data, optimizer, epochs=3)
    trainer = Trainer(model, optimizer)
    text_loss = fit_text(trainer, epochs=2)
    tuned = trainer.finetune(7)
    final = last_pass(model, optimizer)
    print(f"loss {loss:.3f} acc {acc:.3f} text {text_loss.item():.3f} tuned {tuned.item():.3f} last {final.item():.3f}")


if __name__ == "__main__":
    main()
