# Public check 36, p06: RNN sentiment train / evaluate over a DataLoader of (text, label, lengths).
# Source: https://github.com/nathaliega/sentiment_identificator/blob/108b72c05cf102e3cfa13ca47a05deced616402f/src/train_eval.py
# Changes to make it run on the CPU in seconds:
# - a stand-in model (embedding + packed LSTM + sigmoid head, the shape of the book example the
#   repository follows), a stand-in padded collate over 64 seeded token lists, and a driver at the
#   end (3 epochs of train + evaluate) with a checksum. No device is used, as in the source.
# The source's two functions are unchanged.
import torch

def train(dataloader, model, optimizer, loss_fn):
    model.train()
    total_acc, total_loss = 0, 0
    for text_batch, label_batch, lengths in dataloader:
        optimizer.zero_grad()
        pred = model(text_batch, lengths)[:, 0]
        loss = loss_fn(pred, label_batch)
        loss.backward()
        optimizer.step()
        total_acc += ((pred >= 0.5).float() == label_batch).float().sum().item()
        total_loss += loss.item()*label_batch.size(0)
    return total_acc/len(dataloader.dataset), \
    total_loss/len(dataloader.dataset)


def evaluate(dataloader, model, loss_fn):
    model.eval()
    total_acc, total_loss = 0, 0
    with torch.no_grad():
        for text_batch, label_batch, lengths in dataloader:
            pred = model(text_batch, lengths)[:, 0]
            loss = loss_fn(pred, label_batch)
            total_acc += ((pred>=0.5).float() == label_batch).float().sum().item()
            total_loss += loss.item()*label_batch.size(0)
    return total_acc/len(dataloader.dataset), total_loss/len(dataloader.dataset)


# ---- stand-in model, data and driver (not part of the source file) ----
import random
from torch.utils.data import DataLoader
from torch.nn.utils.rnn import pad_sequence, pack_padded_sequence


class RNN(torch.nn.Module):
    def __init__(self, vocab=40, emb=12, hidden=12):
        super().__init__()
        self.embedding = torch.nn.Embedding(vocab, emb, padding_idx=0)
        self.rnn = torch.nn.LSTM(emb, hidden, batch_first=True)
        self.fc = torch.nn.Linear(hidden, 1)

    def forward(self, text, lengths):
        out = pack_padded_sequence(self.embedding(text), lengths.cpu().numpy(), enforce_sorted=False, batch_first=True)
        _, (hidden, _) = self.rnn(out)
        return torch.sigmoid(self.fc(hidden[-1]))


def collate_batch(batch):
    label_list, text_list, lengths = [], [], []
    for label, tokens in batch:
        label_list.append(label)
        processed_text = torch.tensor(tokens, dtype=torch.int64)
        text_list.append(processed_text)
        lengths.append(processed_text.size(0))
    label_list = torch.tensor(label_list, dtype=torch.float32)
    lengths = torch.tensor(lengths)
    padded_text_list = pad_sequence(text_list, batch_first=True)
    return padded_text_list, label_list, lengths


random.seed(0)
torch.manual_seed(0)
rows = [(float(random.random() < 0.5), [random.randint(1, 39) for _ in range(random.randint(3, 15))]) for _ in range(64)]
train_dl = DataLoader(rows[:48], batch_size=8, shuffle=True, collate_fn=collate_batch)
valid_dl = DataLoader(rows[48:], batch_size=8, shuffle=False, collate_fn=collate_batch)
model = RNN()
loss_fn = torch.nn.BCELoss()
optimizer = torch.optim.Adam(model.parameters(), lr=0.01)
hist = []
for epoch in range(3):
    acc_train, loss_train = train(train_dl, model, optimizer, loss_fn)
    acc_valid, loss_valid = evaluate(valid_dl, model, loss_fn)
    hist.append((round(acc_train, 5), round(loss_train, 5), round(acc_valid, 5), round(loss_valid, 5)))
print("checksum", hist)
