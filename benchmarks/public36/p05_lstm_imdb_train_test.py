# Public check 36, p05: LSTM IMDB classifier train / evaluate / run_train (torchtext BucketIterator shape).
# Source: https://github.com/CAU-NLP-NER/IMDB_Classifier/blob/7fa5f605eeae2d37ba967598136ac4deb1c2e3f8/train_test.py
# Changes to make it run on the CPU in seconds:
# - `import torch` added at the top (the source file has no imports; its caller provides `torch`).
# - a stand-in packed-sequence LSTM model, a stand-in iterator of 5 seeded torchtext-like batches
#   (`batch.text` = (tokens, lengths), `batch.label`), and a driver at the end (2 epochs of
#   `run_train` in a temporary directory, because `run_train` saves weights to the cwd) with a checksum.
# The source's four functions are unchanged.
import torch



def accuracy(probs, target):
  winners = probs.argmax(dim=1)
  corrects = (winners == target)
  accuracy = corrects.sum().float() / float(target.size(0))
  return accuracy

def train(model, iterator, optimizer, criterion):
    epoch_loss = 0
    epoch_acc = 0
    model.train()
    for batch in iterator:
        optimizer.zero_grad()
        # retrieve text and no. of words
        text, text_lengths = batch.text
        text_lengths = text_lengths.cpu()
        predictions = model(text, text_lengths)
        loss = criterion(predictions, batch.label.squeeze())

        acc = accuracy(predictions, batch.label)

        # perform backpropagation
        loss.backward()

        optimizer.step()

        epoch_loss += loss.item()
        epoch_acc += acc.item()

    return epoch_loss / len(iterator), epoch_acc / len(iterator)

def evaluate(model, iterator, criterion):
    epoch_loss = 0
    epoch_acc = 0

    model.eval()

    with torch.no_grad():
        for batch in iterator:
            text, text_lengths = batch.text
            text_lengths = text_lengths.cpu()
            predictions = model(text, text_lengths).squeeze(1)

            loss = criterion(predictions, batch.label)

            acc = accuracy(predictions, batch.label)

            epoch_loss += loss.item()
            epoch_acc += acc.item()

    return epoch_loss / len(iterator), epoch_acc / len(iterator)


def run_train(epochs, model, train_iterator, valid_iterator, optimizer, criterion):
    best_valid_loss = float('inf')

    for epoch in range(epochs):

        # train the model
        train_loss, train_acc = train(model, train_iterator, optimizer, criterion)

        # evaluate the model
        valid_loss, valid_acc = evaluate(model, valid_iterator, criterion)

        # save the best model
        if valid_loss < best_valid_loss:
            best_valid_loss = valid_loss
            torch.save(model.state_dict(), 'saved_weights'+'_LSTM.pt')

        print(f'\tTrain Loss: {train_loss:.3f} | Train Acc: {train_acc * 100:.2f}%')
        print(f'\t Val. Loss: {valid_loss:.3f} |  Val. Acc: {valid_acc * 100:.2f}%')


# ---- stand-in model, iterators and driver (not part of the source file) ----
import os
import tempfile
from types import SimpleNamespace
from torch.nn.utils.rnn import pack_padded_sequence


class LSTMClassifier(torch.nn.Module):
    def __init__(self, vocab=50, emb=16, hidden=16, classes=2):
        super().__init__()
        self.emb = torch.nn.Embedding(vocab, emb, padding_idx=0)
        self.rnn = torch.nn.LSTM(emb, hidden, batch_first=True)
        self.fc = torch.nn.Linear(hidden, classes)

    def forward(self, text, text_lengths):
        packed = pack_padded_sequence(self.emb(text), text_lengths, batch_first=True, enforce_sorted=False)
        _, (h, _) = self.rnn(packed)
        return self.fc(h[-1])


def _iterator(seed, device):
    g = torch.Generator().manual_seed(seed)
    out = []
    for _ in range(5):
        lengths = torch.randint(3, 12, (8,), generator=g)
        tokens = torch.randint(1, 50, (8, 12), generator=g) * (torch.arange(12) < lengths[:, None])
        out.append(SimpleNamespace(text=(tokens.to(device), lengths.to(device)),
                                   label=torch.randint(0, 2, (8,), generator=g).to(device)))
    return out


torch.manual_seed(0)
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
model = LSTMClassifier().to(device)
optimizer = torch.optim.Adam(model.parameters(), lr=1e-2)
criterion = torch.nn.CrossEntropyLoss().to(device)
here = os.getcwd()
with tempfile.TemporaryDirectory() as tmp:
    os.chdir(tmp)
    run_train(2, model, _iterator(1, device), _iterator(2, device), optimizer, criterion)
    os.chdir(here)
print("checksum", round(sum(float(p.sum()) for p in model.parameters()), 5))
