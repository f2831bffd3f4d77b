# corpus: runnable
# Red team 45 (blind): evaluation totals that are Python floats fed with INTEGER `.item()`s (per-batch
# accuracy `correct / len(y)`, a token count weighted by 0.5, a sum of token ids that passes 2**24), and a
# Python-int fingerprint that passes 2**63. Python keeps these in float64 / arbitrary precision; the
# printed values use %.17g so the last digits show.
import torch
import torch.nn as nn

torch.manual_seed(0)
torch.set_num_threads(1)
device = 'cuda' if torch.cuda.is_available() else 'cpu'

VOCAB = 50000
NUM_CLASSES = 7


class BagClassifier(nn.Module):
    def __init__(self, vocab, dim, classes):
        super().__init__()
        self.bag = nn.EmbeddingBag(vocab, dim, mode="mean")
        self.head = nn.Linear(dim, classes)

    def forward(self, ids):
        return self.head(self.bag(ids))


model = BagClassifier(VOCAB, 16, NUM_CLASSES).to(device)
model.eval()

batches = []
for b in range(30):
    n = 3 + (b % 5)
    ids = torch.randint(0, VOCAB, (n, 40))
    y = torch.randint(0, NUM_CLASSES, (n,))
    batches.append((ids, y))

acc_sum = 0.0
weighted_tokens = 0.0
id_mass = 0.0
exact_ids = 0
fingerprint = 0
with torch.no_grad():
    for ids, y in batches:
        ids, y = ids.to(device), y.to(device)
        logits = model(ids)
        acc_sum += (logits.argmax(1) == y).sum().item() / len(y)
        weighted_tokens += (ids > 100).sum().item() * 0.5
        id_mass += ids.sum().item()
        exact_ids += ids.sum().item()
        fingerprint += ids[:, 0].sum().item() * (1 << 44)

print("mean acc %.17g" % (acc_sum / len(batches)))
print("weighted tokens %.17g" % weighted_tokens)
print("id mass %.17g" % id_mass, "exact", exact_ids, id_mass == exact_ids)
print("fingerprint", fingerprint, fingerprint > 2 ** 63, type(fingerprint).__name__)
