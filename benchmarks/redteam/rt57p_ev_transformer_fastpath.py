# corpus: runnable
# Red team 57 probe (not blind): a small Transformer encoder classifies padded token sequences; the
# validation loop runs in eval mode WITHOUT no_grad and logs the loss, the accuracy and the mean of the
# pooled features. In eval mode with autograd off, nn.TransformerEncoder takes its fused "fast path" (a
# nested tensor drops the padded positions: their outputs become 0, and the kernels round differently), so
# wrapping this loop in no_grad changes what the mean pooling over every position sees.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(5721)
torch.set_num_threads(1)
device = 'cuda' if torch.cuda.is_available() else 'cpu'

V, L, D = 20, 9, 16
g = torch.Generator().manual_seed(5721)
lengths = torch.randint(3, L + 1, (96,), generator=g)
tokens = torch.randint(2, V, (96, L), generator=g)
pad = torch.arange(L)[None, :] >= lengths[:, None]
tokens[pad] = 0
labels = ((tokens == 5).sum(1) + (tokens == 7).sum(1) > 0).long()


class Classifier(nn.Module):
    def __init__(self):
        super().__init__()
        self.emb = nn.Embedding(V, D, padding_idx=0)
        layer = nn.TransformerEncoderLayer(D, 4, 32, dropout=0.1, batch_first=True)
        self.enc = nn.TransformerEncoder(layer, 2)
        self.head = nn.Linear(D, 2)

    def forward(self, ids, mask):
        h = self.enc(self.emb(ids), src_key_padding_mask=mask)
        return self.head(h.mean(1)), h


model = Classifier().to(device)
opt = torch.optim.Adam(model.parameters(), lr=0.01)
for epoch in range(3):
    for i in range(0, 64, 16):
        logits, _ = model(tokens[i:i + 16].to(device), pad[i:i + 16].to(device))
        loss = F.cross_entropy(logits, labels[i:i + 16].to(device))
        opt.zero_grad()
        loss.backward()
        opt.step()

model.eval()
val_loss, correct, feat_mean = 0.0, 0, 0.0
for i in range(64, 96, 8):
    logits, h = model(tokens[i:i + 8].to(device), pad[i:i + 8].to(device))
    val_loss += F.cross_entropy(logits, labels[i:i + 8].to(device), reduction='sum').item()
    correct += (logits.argmax(1).cpu() == labels[i:i + 8]).sum().item()
    feat_mean += h.mean().item()
model.train()
print(f'val loss {val_loss / 32:.8f} acc {correct / 32:.4f} feature mean {feat_mean / 4:.8f}')
print('checksum', round(val_loss + correct + feat_mean, 6))
