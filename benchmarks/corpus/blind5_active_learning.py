# corpus: runnable
"""Pool-based active learning: each round the classifier is retrained from scratch on the
labelled set, the unlabelled pool is scored (predictive entropy) and the most uncertain
points are queried; a BADGE-style variant embeds the pool by the gradient of the loss at the
predicted label with respect to the last layer, which needs autograd in evaluation mode."""
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, Subset, TensorDataset

torch.manual_seed(0)
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
X = torch.randn(600, 8)
Y = ((X[:, 0] > 0) ^ (X[:, 1] > 0)).long()
full = TensorDataset(X, Y)
test_x, test_y = X[500:].to(device), Y[500:].to(device)
labelled, pool = list(range(20)), list(range(20, 500))


def train_model(indices):
    model = nn.Sequential(nn.Linear(8, 32), nn.ReLU(), nn.Linear(32, 2)).to(device)
    opt = torch.optim.Adam(model.parameters(), lr=1e-2)
    loader = DataLoader(Subset(full, indices), batch_size=32, shuffle=True)  # paef: ok pageable-transfer
    for _ in range(15):
        for x, y in loader:
            loss = F.cross_entropy(model(x.to(device)), y.to(device))
            opt.zero_grad()
            loss.backward()
            opt.step()
    return model


def entropy_scores(model, indices):
    model.eval()
    scores = []
    for x, _ in DataLoader(Subset(full, indices), batch_size=128):  # paef: expect-fix eval-without-no-grad; ok pageable-transfer
        p = model(x.to(device)).softmax(-1)
        scores.append(-(p * p.clamp_min(1e-8).log()).sum(-1))
    return torch.cat(scores)


def gradient_embeddings(model, indices):
    model.eval()
    embs = []
    for x, _ in DataLoader(Subset(full, indices), batch_size=128):  # paef: refuse eval-without-no-grad; ok pageable-transfer
        x = x.to(device)
        logits = model(x)
        loss = F.cross_entropy(logits, logits.argmax(1), reduction="sum")
        grad = torch.autograd.grad(loss, model[-1].weight)[0]
        embs.append(grad.flatten().expand(x.shape[0], -1) * logits.softmax(-1).max(1, keepdim=True)[0].detach())
    return torch.cat(embs)


for rnd in range(4):
    model = train_model(labelled)
    with torch.no_grad():
        acc = (model(test_x).argmax(1) == test_y).float().mean().item()
    scores = entropy_scores(model, pool)
    picked = scores.topk(20).indices.tolist()
    emb_norm = gradient_embeddings(model, pool).norm(dim=1).mean().item()
    new = [pool[i] for i in picked]
    labelled += new
    pool = [i for i in pool if i not in set(new)]
    print(f"round {rnd} labelled {len(labelled) - 20} acc {acc:.3f} grad-emb norm {emb_norm:.4f}")
