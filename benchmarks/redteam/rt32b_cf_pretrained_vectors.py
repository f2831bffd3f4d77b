# corpus: runnable
# Red team 32b, wave 1 (blind): a bag-of-words classifier fine-tuning "pretrained" word vectors.
# The vectors come from NumPy (as from a GloVe file) and are handed to `nn.Embedding.from_pretrained`
# through `torch.from_numpy` (no copy: on the CPU the embedding's weight IS the NumPy array), and
# the first layer's weight is read back once as a NumPy array for monitoring. Every epoch the
# script logs the vector norms and each word's nearest neighbour, computed with NumPy on those
# arrays: the optimizer changes them in place between epochs.
import numpy as np
import torch
import torch.nn.functional as F
from torch import nn

torch.set_num_threads(1)
torch.manual_seed(0)
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
rng = np.random.default_rng(0)
VOCAB = ["good", "great", "fine", "bad", "awful", "poor", "movie", "plot"]
vectors = rng.normal(0.0, 1.0, (len(VOCAB), 6)).astype(np.float32)


def nearest_neighbours(table):
    unit = table / np.linalg.norm(table, axis=1, keepdims=True)
    sims = unit @ unit.T
    np.fill_diagonal(sims, -np.inf)
    return sims.argmax(axis=1)


class BagOfWords(nn.Module):
    def __init__(self, table):
        super().__init__()
        self.emb = nn.Embedding.from_pretrained(torch.from_numpy(table), freeze=False)
        self.head = nn.Linear(table.shape[1], 2)

    def forward(self, ids):
        return self.head(self.emb(ids).mean(1))


model = BagOfWords(vectors).to(device)
head_w = model.head.weight.detach().numpy()
opt = torch.optim.SGD(model.parameters(), lr=0.8)
ids = torch.tensor([[0, 6, 7], [1, 6, 6], [2, 7, 6], [3, 6, 7], [4, 7, 7], [5, 6, 7]], device=device)
labels = torch.tensor([1, 1, 1, 0, 0, 0], device=device)
for epoch in range(4):
    for step in range(3):
        loss = F.cross_entropy(model(ids), labels)
        opt.zero_grad()
        loss.backward()
        opt.step()
    norms = np.linalg.norm(vectors, axis=1)
    neighbours = nearest_neighbours(vectors)
    head_scale = np.abs(head_w).max()
    print(f"epoch {epoch} loss {loss.item():.6f} head {head_scale:.6f}")
    print("  norms", np.round(norms, 5).tolist())
    print("  neighbours", [VOCAB[j] for j in neighbours])
