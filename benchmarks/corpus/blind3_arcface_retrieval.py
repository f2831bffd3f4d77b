# corpus: runnable
"""Metric learning with an additive angular margin (ArcFace) head on clustered features,
recall@1 retrieval evaluation, and an input-gradient saliency check on a few queries."""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")

n_classes, dim = 6, 16
centers = torch.randn(n_classes, dim) * 2
y_all = torch.randint(0, n_classes, (600,))
x_all = centers[y_all] + torch.randn(600, dim)
x_train, y_train, x_test, y_test = x_all[:480], y_all[:480], x_all[480:], y_all[480:]


class ArcMarginProduct(nn.Module):
    def __init__(self, in_features, out_features, s=16.0, m=0.3):
        super().__init__()
        self.weight = nn.Parameter(torch.empty(out_features, in_features))
        nn.init.xavier_uniform_(self.weight)
        self.s, self.cos_m, self.sin_m = s, math.cos(m), math.sin(m)
        self.th, self.mm = math.cos(math.pi - m), math.sin(math.pi - m) * m

    def forward(self, x, label):
        cosine = F.linear(F.normalize(x), F.normalize(self.weight))
        sine = torch.sqrt((1.0 - cosine.pow(2)).clamp(0, 1))
        phi = cosine * self.cos_m - sine * self.sin_m
        phi = torch.where(cosine > self.th, phi, cosine - self.mm)
        one_hot = torch.zeros(cosine.size(), device=x.device)
        one_hot.scatter_(1, label.view(-1, 1).long(), 1)
        return ((one_hot * phi) + ((1.0 - one_hot) * cosine)) * self.s


embedder = nn.Sequential(nn.Linear(dim, 64), nn.ReLU(), nn.Linear(64, 8)).to(device)
head = ArcMarginProduct(8, n_classes).to(device)
opt = torch.optim.SGD(list(embedder.parameters()) + list(head.parameters()), lr=0.05, momentum=0.9)

for epoch in range(8):
    perm = torch.randperm(len(x_train))
    for b in range(0, len(perm), 64):
        idx = perm[b:b + 64]
        x, y = x_train[idx].to(device), y_train[idx].to(device)
        loss = F.cross_entropy(head(embedder(x), y), y)
        opt.zero_grad()
        loss.backward()
        opt.step()


def recall_at_1(emb, labels):
    emb = F.normalize(emb)
    sim = emb @ emb.t()
    sim.fill_diagonal_(-2)
    nn_idx = sim.argmax(1)
    correct = 0
    for i in range(len(labels)):  # paef: expect elementwise-loop
        if labels[nn_idx[i]] == labels[i]:  # paef: ok host-sync
            correct += 1
    return correct / len(labels)


embedder.eval()
with torch.no_grad():
    r1 = recall_at_1(embedder(x_test.to(device)), y_test.to(device))
print(f"recall@1 {r1:.3f}")

saliency = []
for q in range(4):  # paef: refuse eval-without-no-grad
    x = x_test[q:q + 1].to(device).requires_grad_(True)
    emb = embedder(x)  # paef: refuse eval-without-no-grad
    emb.norm().backward()
    saliency.append(x.grad.abs().squeeze(0))
top = torch.stack(saliency).mean(0).topk(3).indices.tolist()
print("most salient input dims:", top)
