# corpus: runnable
"""Three small programs in the style of code seen in public check 16: a text recognizer whose
training step decodes its greedy predictions on the host with a converter it is given and counts
the decoded strings equal to the loader's string labels; a semi-supervised trainer handed a
labelled and an unlabelled loader, drawing one batch of each per step with `next(it)`; and a
language model whose loss helper (a function running the global model) the training loop
back-propagates, called again after `.eval()` on held-out sentences with autograd on."""
import random
import types

import torch
import torch.nn as nn
from torch.utils.data import DataLoader, Dataset, TensorDataset

torch.manual_seed(0)
random.seed(0)
torch.set_num_threads(1)
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
ALPHABET = "abc"


class TextLines(Dataset):
    """Tiny images of three-letter words: (image, word) pairs, the word a Python string."""

    def __init__(self, n):
        self.words = ["".join(random.choice(ALPHABET) for _ in range(3)) for _ in range(n)]
        self.images = [torch.randn(1, 4, 12) for _ in range(n)]

    def __len__(self):
        return len(self.words)

    def __getitem__(self, i):
        return self.images[i], self.words[i]


def make_converter(alphabet):
    """Label encoding and greedy CTC decoding over `alphabet`, handed out as a text-recognition
    toolkit hands them: an object whose methods the training code does not see."""
    def encode(words):
        flat = [alphabet.index(c) + 1 for w in words for c in w]
        return torch.tensor(flat, dtype=torch.long), torch.tensor([len(w) for w in words], dtype=torch.long)

    def decode(best, length, batch):
        out = []
        for row in best.view(batch, -1).numpy():
            chars, prev = [], 0
            for k in row[: int(length)]:
                if k != 0 and k != prev:
                    chars.append(alphabet[k - 1])
                prev = k
            out.append("".join(chars))
        return out

    return types.SimpleNamespace(encode=encode, decode=decode)


class TinyCRNN(nn.Module):
    def __init__(self, classes):
        super().__init__()
        self.conv = nn.Conv2d(1, 8, 3, padding=1)
        self.fc = nn.Linear(8 * 4, classes)

    def forward(self, x):
        f = self.conv(x).permute(3, 0, 1, 2).flatten(2)
        return self.fc(f).log_softmax(2)


def train_recognizer(net, converter, epochs=2):
    loader = DataLoader(TextLines(24), batch_size=6, shuffle=True)  # paef: ok pageable-transfer
    criterion = nn.CTCLoss(zero_infinity=True)
    optimizer = torch.optim.Adam(net.parameters(), lr=1e-2)
    for epoch in range(epochs):
        n_correct = 0
        for images, labels in loader:
            images = images.to(device)
            text, length = converter.encode(labels)
            preds = net(images)
            preds_size = torch.full((images.size(0),), preds.size(0), dtype=torch.long)
            loss = criterion(preds, text, preds_size, length)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            _, best = preds.max(2)
            best = best.transpose(1, 0).contiguous()
            sim_preds = converter.decode(best.cpu().data, preds.size(0), images.size(0))  # paef: ok host-sync
            for pred, target in zip(sim_preds, labels):
                if pred == target:
                    n_correct += 1
        print("recognizer", epoch, n_correct)


def train_ssl(labeled_loader, unlabeled_loader, model, optimizer, steps):
    labeled_iter = iter(labeled_loader)
    unlabeled_iter = iter(unlabeled_loader)
    total = torch.zeros((), device=device)
    for step in range(steps):
        try:
            inputs_x, targets_x = next(labeled_iter)
        except StopIteration:
            labeled_iter = iter(labeled_loader)
            inputs_x, targets_x = next(labeled_iter)
        try:
            (inputs_u,) = next(unlabeled_iter)
        except StopIteration:
            unlabeled_iter = iter(unlabeled_loader)
            (inputs_u,) = next(unlabeled_iter)
        inputs_x, targets_x = inputs_x.to(device), targets_x.to(device)
        inputs_u = inputs_u.to(device)
        with torch.no_grad():
            guess = model(inputs_u).softmax(1)
        loss = nn.functional.cross_entropy(model(inputs_x), targets_x) \
            + (model(inputs_u).softmax(1) - guess).pow(2).mean()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        total += loss.detach()
    print("ssl", round(float(total), 4))


def run_ssl():
    labeled = TensorDataset(torch.randn(16, 5), torch.randint(0, 3, (16,)))
    unlabeled = TensorDataset(torch.randn(40, 5))
    labeled_loader = DataLoader(labeled, batch_size=4, shuffle=True, drop_last=True)  # paef: ok pageable-transfer
    unlabeled_loader = DataLoader(unlabeled, batch_size=8, shuffle=True, drop_last=True)  # paef: ok pageable-transfer
    model = nn.Linear(5, 3).to(device)
    train_ssl(labeled_loader, unlabeled_loader, model, torch.optim.SGD(model.parameters(), lr=0.1), 9)


N = 2
lm_train = [[random.randrange(1, 9) for _ in range(5)] for _ in range(8)]
lm_dev = [[random.randrange(1, 9) for _ in range(4)] for _ in range(3)]


class NgramLM(nn.Module):
    def __init__(self):
        super().__init__()
        self.embedding = nn.Embedding(10, 6)
        self.out = nn.Linear(6 * N, 10)

    def forward(self, x):
        return self.out(self.embedding(x).view(x.size(0), -1))


lm = NgramLM().to(device)
lm_optimizer = torch.optim.Adam(lm.parameters(), lr=1e-2)
lm_criterion = nn.CrossEntropyLoss()


def sentence_loss(sent):
    hist, histories, targets = [0] * N, [], []
    for word in sent + [0]:
        histories.append(list(hist))
        targets.append(word)
        hist = hist[1:] + [word]
    logits = lm(torch.tensor(histories, device=device))
    return lm_criterion(logits, torch.tensor(targets, device=device))


def run_lm(epochs=2):
    for epoch in range(epochs):
        lm.train()
        train_loss = 0.0
        for sent in lm_train:
            loss = sentence_loss(sent)
            train_loss += loss.item()  # paef: expect host-sync
            lm_optimizer.zero_grad()
            loss.backward()
            lm_optimizer.step()
        lm.eval()
        dev_loss = 0.0
        for sent in lm_dev:  # paef: expect eval-without-no-grad
            dev_loss += sentence_loss(sent).item()  # paef: ok host-sync
        print("lm", epoch, round(train_loss, 4), round(dev_loss, 4))


train_recognizer(TinyCRNN(len(ALPHABET) + 1).to(device), make_converter(ALPHABET))
run_ssl()
run_lm()
