# corpus: runnable
"""A text classifier whose script never names a device: the model is moved by a helper imported
from `utils`, and so are the batches. The evaluation loop turns every batch's predictions into
NumPy arrays; the training loop keeps its loss on the device."""
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

from utils import move, prepare_model

torch.manual_seed(0)


class BagOfEmbeddings(nn.Module):
    def __init__(self, vocab, dim, classes):
        super().__init__()
        self.emb = nn.EmbeddingBag(vocab, dim)
        self.fc = nn.Linear(dim, classes)

    def forward(self, tokens):
        return self.fc(self.emb(tokens))


def batches(n, seed):
    g = torch.Generator().manual_seed(seed)
    tokens = torch.randint(0, 50, (n, 12), generator=g)
    labels = (tokens[:, 0] > 25).long()
    return [(tokens[i : i + 16], labels[i : i + 16]) for i in range(0, n, 16)]


def evaluate(model, data_iter):
    model.eval()
    predict_all = np.array([], dtype=int)
    labels_all = np.array([], dtype=int)
    with torch.no_grad():
        for texts, labels in data_iter:
            texts, labels = move((texts, labels))
            outputs = model(texts)
            predic = torch.max(outputs.data, 1)[1].cpu().numpy()  # paef: ok host-sync
            labels_all = np.append(labels_all, labels.data.cpu().numpy())  # paef: ok host-sync
            predict_all = np.append(predict_all, predic)
    return float((predict_all == labels_all).mean())


def train(model, train_iter, dev_iter, epochs):
    optimizer = torch.optim.Adam(model.parameters(), lr=5e-3)
    for epoch in range(epochs):
        model.train()
        total = 0
        for texts, labels in train_iter:
            texts, labels = move((texts, labels))
            loss = F.cross_entropy(model(texts), labels)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            total = total + loss.detach()
        print(f"epoch {epoch} loss {float(total) / len(train_iter):.4f} dev acc {evaluate(model, dev_iter):.3f}")


model = prepare_model(BagOfEmbeddings(50, 16, 2))
train(model, batches(256, 0), batches(64, 1), 3)
