# corpus: runnable
"""Non-parametric instance discrimination (NPID) with a memory bank: every image is its own
class, features are compared against the L2-normalised bank entries of random negatives
(NCE-style softmax over 1 positive + K negatives), and the bank rows of the batch are updated
with momentum after the step. A weighted kNN classifier over the bank evaluates the features."""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
N, DIM, K, T, MOMENTUM = 512, 32, 64, 0.07, 0.5


class MemoryBank:
    def __init__(self, n, dim):
        self.bank = F.normalize(torch.randn(n, dim, device=device), dim=1)

    def logits(self, feats, idx):
        neg_idx = torch.randint(0, self.bank.shape[0], (feats.shape[0], K), device=feats.device)
        weights = torch.cat([self.bank[idx].unsqueeze(1), self.bank[neg_idx]], 1)
        return torch.bmm(weights, feats.unsqueeze(2)).squeeze(2) / T

    @torch.no_grad()
    def update(self, feats, idx):
        new = self.bank[idx] * MOMENTUM + feats.detach() * (1 - MOMENTUM)
        self.bank[idx] = F.normalize(new, dim=1)


class IndexedDataset(torch.utils.data.Dataset):
    def __init__(self, x, y):
        self.x, self.y = x, y

    def __len__(self):
        return len(self.x)

    def __getitem__(self, i):
        return self.x[i], self.y[i], i


def augment(x):
    return x + 0.1 * torch.randn_like(x)


centers = torch.randn(8, 64)
labels = torch.randint(0, 8, (N,))
images = centers[labels] + 0.5 * torch.randn(N, 64)
loader = torch.utils.data.DataLoader(IndexedDataset(images, labels), batch_size=64, shuffle=True)  # paef: ok pageable-transfer
encoder = nn.Sequential(nn.Linear(64, 128), nn.ReLU(), nn.Linear(128, DIM)).to(device)
optimizer = torch.optim.SGD(encoder.parameters(), lr=0.03, momentum=0.9)
memory = MemoryBank(N, DIM)

for epoch in range(5):
    encoder.train()
    for x, _, idx in loader:
        x, idx = x.to(device), idx.to(device)
        feats = F.normalize(encoder(augment(x)), dim=1)
        logits = memory.logits(feats, idx)
        loss = F.cross_entropy(logits, torch.zeros(len(idx), dtype=torch.long, device=device))  # paef: ok redundant-tensor
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        memory.update(feats, idx)

    encoder.eval()
    correct = 0
    with torch.no_grad():
        test = centers[labels[:100]] + 0.5 * torch.randn(100, 64)
        q = F.normalize(encoder(test.to(device)), dim=1)
        bank_labels = labels.to(device)
        for i in range(q.shape[0]):  # paef: expect elementwise-loop
            sim = memory.bank @ q[i]
            top, top_idx = sim.topk(20)
            votes = torch.zeros(8, device=device).index_add_(0, bank_labels[top_idx], (top / T).exp())  # paef: ok redundant-tensor
            correct += int(votes.argmax() == labels[i].to(device))  # paef: expect host-sync; ok pageable-transfer
    print(f"epoch {epoch} loss {loss.item():.4f} knn acc {correct / 100:.2f}")
