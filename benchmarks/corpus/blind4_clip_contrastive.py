# corpus: runnable
"""CLIP-style contrastive training of an "image" and a "text" tower on paired synthetic
data: a learnable temperature clamped after each step, symmetric cross-entropy over the
in-batch similarity matrix, retrieval evaluation (Recall@1/5) on embeddings gathered under
no_grad and concatenated after the loop."""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset

torch.manual_seed(0)
device = "cuda" if torch.cuda.is_available() else "cpu"
N, D_IMG, D_TXT, D = 640, 24, 12, 16
latent = torch.randn(N, 8)
images = torch.cat([latent, torch.randn(N, D_IMG - 8) * 0.5], 1) @ torch.randn(D_IMG, D_IMG)
texts = torch.cat([latent, torch.randn(N, D_TXT - 8) * 0.5], 1) @ torch.randn(D_TXT, D_TXT)


class CLIP(nn.Module):
    def __init__(self):
        super().__init__()
        self.visual = nn.Sequential(nn.Linear(D_IMG, 64), nn.ReLU(), nn.Linear(64, D))
        self.textual = nn.Sequential(nn.Linear(D_TXT, 64), nn.ReLU(), nn.Linear(64, D))
        self.logit_scale = nn.Parameter(torch.ones([]) * math.log(1 / 0.07))

    def encode_image(self, x):
        return F.normalize(self.visual(x), dim=-1)

    def encode_text(self, t):
        return F.normalize(self.textual(t), dim=-1)

    def forward(self, x, t):
        img, txt = self.encode_image(x), self.encode_text(t)
        logits_per_image = self.logit_scale.exp() * img @ txt.t()
        return logits_per_image, logits_per_image.t()


train_loader = DataLoader(TensorDataset(images[:512], texts[:512]), batch_size=64, shuffle=True, drop_last=True)  # paef: ok pageable-transfer
test_loader = DataLoader(TensorDataset(images[512:], texts[512:]), batch_size=64)  # paef: ok pageable-transfer
model = CLIP().to(device)
optimizer = torch.optim.AdamW(model.parameters(), lr=3e-3, weight_decay=0.1)
for epoch in range(5):
    model.train()
    running = []
    for img, txt in train_loader:
        img, txt = img.to(device), txt.to(device)
        logits_per_image, logits_per_text = model(img, txt)
        ground_truth = torch.arange(len(img), dtype=torch.long, device=device)  # paef: ok redundant-tensor
        loss = (F.cross_entropy(logits_per_image, ground_truth) + F.cross_entropy(logits_per_text, ground_truth)) / 2
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        with torch.no_grad():
            model.logit_scale.clamp_(0, math.log(100))
        running.append(loss.item())  # paef: expect host-sync
    model.eval()
    img_embs, txt_embs = [], []
    with torch.no_grad():
        for img, txt in test_loader:
            img_embs.append(model.encode_image(img.to(device)))
            txt_embs.append(model.encode_text(txt.to(device)))
    img_embs, txt_embs = torch.cat(img_embs), torch.cat(txt_embs)
    topk = (img_embs @ txt_embs.t()).topk(5, dim=1).indices
    r1 = r5 = 0
    for i in range(len(topk)):  # paef: expect elementwise-loop
        r1 += int(topk[i, 0] == i)  # paef: ok host-sync
        r5 += int(i in topk[i])  # paef: ok host-sync
    print(f"epoch {epoch} loss {sum(running) / len(running):.4f} R@1 {r1 / len(topk):.3f} R@5 {r5 / len(topk):.3f} scale {model.logit_scale.exp().item():.2f}")
