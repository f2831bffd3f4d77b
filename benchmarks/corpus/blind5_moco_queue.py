# corpus: runnable
"""MoCo-v2-style contrastive pre-training: a query encoder, a momentum key encoder updated by
EMA, a queue of negative keys kept as a buffer with a pointer, two random augmentations of each
batch made in the loop, and InfoNCE with the positive at index 0."""
import copy

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset

torch.manual_seed(0)
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")


class MoCo(nn.Module):
    def __init__(self, dim=16, K=256, m=0.99, T=0.2):
        super().__init__()
        self.K, self.m, self.T = K, m, T
        self.encoder_q = nn.Sequential(nn.Linear(32, 64), nn.ReLU(), nn.Linear(64, dim))
        self.encoder_k = copy.deepcopy(self.encoder_q)
        for p in self.encoder_k.parameters():
            p.requires_grad = False
        self.register_buffer("queue", F.normalize(torch.randn(dim, K), dim=0))
        self.register_buffer("queue_ptr", torch.zeros(1, dtype=torch.long))

    @torch.no_grad()
    def _momentum_update(self):
        for pq, pk in zip(self.encoder_q.parameters(), self.encoder_k.parameters()):
            pk.data = pk.data * self.m + pq.data * (1.0 - self.m)

    @torch.no_grad()
    def _dequeue_and_enqueue(self, keys):
        ptr = int(self.queue_ptr)  # paef: expect host-sync
        self.queue[:, ptr : ptr + keys.shape[0]] = keys.T
        self.queue_ptr[0] = (ptr + keys.shape[0]) % self.K

    def forward(self, im_q, im_k):
        q = F.normalize(self.encoder_q(im_q), dim=1)
        with torch.no_grad():
            self._momentum_update()
            k = F.normalize(self.encoder_k(im_k), dim=1)
        l_pos = torch.einsum("nc,nc->n", q, k).unsqueeze(-1)
        l_neg = torch.einsum("nc,ck->nk", q, self.queue.clone().detach())
        logits = torch.cat([l_pos, l_neg], dim=1) / self.T
        labels = torch.zeros(logits.shape[0], dtype=torch.long, device=logits.device)  # paef: ok redundant-tensor
        self._dequeue_and_enqueue(k)
        return logits, labels


def augment(x):
    return x * (torch.rand_like(x) > 0.1) + 0.1 * torch.randn_like(x)


centers = torch.randn(8, 32)
data = centers[torch.randint(0, 8, (512,))] + 0.3 * torch.randn(512, 32)
loader = DataLoader(TensorDataset(data), batch_size=64, shuffle=True, drop_last=True)  # paef: ok pageable-transfer
model = MoCo().to(device)
optimizer = torch.optim.SGD(model.encoder_q.parameters(), lr=0.05, momentum=0.9, weight_decay=1e-4)
criterion = nn.CrossEntropyLoss()
for epoch in range(4):
    losses = []
    for (x,) in loader:
        x = x.to(device)
        logits, labels = model(augment(x), augment(x))
        loss = criterion(logits, labels)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        losses.append(loss.item())  # paef: expect host-sync
    print(f"epoch {epoch} loss {sum(losses) / len(losses):.4f}")
with torch.no_grad():
    z = F.normalize(model.encoder_q(centers.to(device)), dim=1)
    print("center similarity", (z @ z.T).fill_diagonal_(0).max().item())
