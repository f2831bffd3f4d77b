# corpus: runnable
"""A wav2vec 2.0-style pre-training toy: a strided conv feature encoder, span masking of the
latent frames (spans drawn with NumPy per batch, as in compute_mask_indices), a Gumbel-softmax
quantizer giving the targets, and a contrastive loss against distractors sampled from other
masked frames of the same utterance; a codebook diversity penalty is added."""
import math

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

np.random.seed(0)
torch.manual_seed(0)
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
MASK_PROB, MASK_LEN, N_NEG, TEMP = 0.5, 3, 4, 0.1


def compute_mask_indices(shape, mask_prob, mask_length):
    bsz, frames = shape
    mask = np.full((bsz, frames), False)
    n_spans = int(mask_prob * frames / mask_length + np.random.rand())
    for i in range(bsz):
        starts = np.random.choice(frames - mask_length, n_spans, replace=False)  # paef: ok cpu-function
        for s in starts:
            mask[i, s : s + mask_length] = True
    return mask


class GumbelQuantizer(nn.Module):
    def __init__(self, dim, n_codes=32):
        super().__init__()
        self.proj = nn.Linear(dim, n_codes)
        self.codebook = nn.Parameter(torch.randn(n_codes, dim))
        self.tau = 2.0

    def forward(self, x):
        logits = self.proj(x)
        probs = F.gumbel_softmax(logits, tau=self.tau, hard=True)
        avg = torch.softmax(logits, -1).mean(dim=(0, 1))
        perplexity = torch.exp(-(avg * torch.log(avg + 1e-7)).sum())
        return probs @ self.codebook, perplexity


class Wav2VecToy(nn.Module):
    def __init__(self, dim=32):
        super().__init__()
        self.encoder = nn.Sequential(nn.Conv1d(1, dim, 10, 5), nn.GELU(), nn.Conv1d(dim, dim, 4, 2), nn.GELU())
        self.context = nn.GRU(dim, dim, batch_first=True)
        self.mask_emb = nn.Parameter(torch.rand(dim))
        self.quantizer = GumbelQuantizer(dim)
        self.final = nn.Linear(dim, dim)

    def forward(self, wav, mask):
        z = self.encoder(wav.unsqueeze(1)).transpose(1, 2)
        q, ppl = self.quantizer(z)
        z = z.clone()
        z[mask] = self.mask_emb
        c, _ = self.context(z)
        return self.final(c), q, ppl


def sample_negatives(q, mask, n_neg):
    negs = []
    for b in range(q.shape[0]):
        pool = mask[b].nonzero().squeeze(1)
        pick = pool[torch.randint(len(pool), (int(mask[b].sum()), n_neg))]  # paef: ok host-sync
        negs.append(q[b, pick])
    return torch.cat(negs)


def contrastive_loss(c, q, mask):
    pos = q[mask]
    neg = sample_negatives(q, mask, N_NEG)
    cand = torch.cat([pos.unsqueeze(1), neg], dim=1)
    logits = F.cosine_similarity(c[mask].unsqueeze(1), cand, dim=-1) / TEMP
    target = torch.zeros(logits.shape[0], dtype=torch.long).to(device)  # paef: expect cpu-then-move; ok redundant-tensor
    return F.cross_entropy(logits, target)


t = torch.linspace(0, 1, 800)
waves = torch.stack([torch.sin(2 * math.pi * (50 + 10 * k) * t) + 0.3 * torch.randn(800) for k in range(64)])
model = Wav2VecToy().to(device)
optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
step = 0
for epoch in range(3):
    for i in range(0, len(waves), 16):
        wav = waves[i : i + 16].to(device)
        frames = model.encoder(wav[:1].unsqueeze(1)).shape[-1]
        mask = torch.from_numpy(compute_mask_indices((wav.shape[0], frames), MASK_PROB, MASK_LEN)).to(device)  # paef: refuse cpu-function
        c, q, ppl = model(wav, mask)
        loss = contrastive_loss(c, q, mask) + 0.1 * (32 - ppl) / 32
        optimizer.zero_grad()
        loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), 5.0)
        optimizer.step()
        model.quantizer.tau = max(0.5, model.quantizer.tau * 0.95)
        step += 1
        if step % 4 == 0:
            print(f"step {step} loss {loss.item():.4f} ppl {ppl.item():.2f} tau {model.quantizer.tau:.3f}")  # paef: ok host-sync
