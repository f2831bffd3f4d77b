# corpus: runnable
# Red team 48, PROBE after first contact (not blind): a library model whose forward depends on grad mode.
# `nn.TransformerEncoder` in eval mode takes its "fast path" only when autograd is off (or no parameter
# requires grad): with a key padding mask it then runs on nested tensors and returns ZEROS at padded
# positions, where the regular path returns values there. The evaluation pools over every position
# (a plain `mean(1)`), so wrapping it in no_grad changes the validation loss and predictions.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(23)
torch.set_num_threads(1)
device = 'cuda' if torch.cuda.is_available() else 'cpu'

VOCAB, D, PAD = 30, 16, 0


class TextClassifier(nn.Module):
    def __init__(self):
        super().__init__()
        self.emb = nn.Embedding(VOCAB, D, padding_idx=PAD)
        layer = nn.TransformerEncoderLayer(D, 4, 32, dropout=0.1, batch_first=True)
        self.encoder = nn.TransformerEncoder(layer, 2)
        self.head = nn.Linear(D, 2)

    def forward(self, tokens):
        pad = tokens == PAD
        h = self.encoder(self.emb(tokens), src_key_padding_mask=pad)
        return self.head(h.mean(1))


def batch(n, length):
    lens = torch.randint(2, length + 1, (n,))
    toks = torch.randint(1, VOCAB, (n, length))
    toks[torch.arange(length)[None, :] >= lens[:, None]] = PAD
    return toks, (toks[:, 0] % 2)


model = TextClassifier().to(device)
opt = torch.optim.AdamW(model.parameters(), lr=3e-3)
train = [batch(8, 7) for _ in range(6)]
val = [batch(8, 7) for _ in range(3)]
for epoch in range(2):
    model.train()
    for toks, y in train:
        toks, y = toks.to(device), y.to(device)
        loss = F.cross_entropy(model(toks), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
    model.eval()
    val_loss = 0.0
    correct = 0
    for toks, y in val:
        toks, y = toks.to(device), y.to(device)
        logits = model(toks)
        val_loss += F.cross_entropy(logits, y).item()
        correct += (logits.argmax(1) == y).sum().item()
    print(f"epoch {epoch} train {loss.item():.10f} val {val_loss / len(val):.10f} correct {correct}")
