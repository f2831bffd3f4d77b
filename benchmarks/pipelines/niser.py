"""NISER-like session recommender: one training epoch, hurried (`before`) and hand-fixed (`after`).

Sessions are item-id sequences; a session is the recency-weighted mean of its L2-normalised
item embeddings, scored against every normalised item embedding (scaled cosine, softmax
over items) to predict the next item, as in NISER (Gupta et al., 2019).

`before` carries the antipatterns a hurried notebook has: the dataset is a dict of Python
lists read per batch (dict-as-list), the padding mask goes through numpy (ping-pong), the
position weights are rebuilt each batch (redundant-tensor), normalisation and softmax
cross-entropy are written out by hand (operator-fusion), the loss is read with `.item()`
every step (host-sync) and the hit rate is built from per-sample `.item()`s
(list-to-tensor, elementwise-loop). `after` is the same computation with each fixed.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import torch
import torch.nn.functional as F

Data = dict[str, Any]

SCALE = 16.0  # NISER's temperature on the cosine scores


def make_data(tiny: bool = False, device: str | torch.device = "cpu", seed: int = 0) -> Data:
    """Synthetic sessions with a next-item signal: items follow a per-session random walk."""
    n_items, n_sessions, max_len, dim, batch = (30, 40, 5, 8, 8) if tiny else (3000, 8192, 10, 64, 128)
    rng = np.random.default_rng(seed)
    sessions, targets = [], []
    for _ in range(n_sessions):
        length = int(rng.integers(2, max_len + 1))
        walk = (int(rng.integers(1, n_items)) + np.cumsum(rng.integers(-3, 4, length + 1))) % (n_items - 1) + 1
        items = walk.tolist()
        sessions.append([0] * (max_len - length) + items[:length])
        targets.append(items[length])
    order = rng.permutation(n_sessions).tolist()
    generator = torch.Generator().manual_seed(seed)
    return {
        "data": {"sessions": sessions, "targets": targets},
        "batches": [order[i : i + batch] for i in range(0, n_sessions, batch)],
        "embedding": torch.randn(n_items, dim, generator=generator) * 0.1,
        "max_len": max_len,
        "device": torch.device(device),
    }


def _init(d: Data) -> tuple[torch.Tensor, torch.optim.Optimizer]:
    emb = d["embedding"].clone().to(d["device"]).requires_grad_()
    return emb, torch.optim.SGD([emb], lr=5.0)


def before(d: Data) -> dict[str, torch.Tensor]:
    emb, opt = _init(d)
    data, device, max_len = d["data"], d["device"], d["max_len"]
    losses, hit_rates = [], []
    for idx in d["batches"]:
        seq = torch.tensor([data["sessions"][i] for i in idx], device=device)
        target = torch.tensor([data["targets"][i] for i in idx], device=device)
        mask = torch.tensor((seq.cpu().numpy() > 0).astype(np.float32), device=device)
        pos_w = torch.tensor([1.0 / (max_len - p) for p in range(max_len)], device=device)

        e = emb[seq]
        e = e / torch.sqrt((e * e).sum(-1, keepdim=True) + 1e-12)
        w = mask * pos_w
        s = (e * w.unsqueeze(-1)).sum(1) / w.sum(1, keepdim=True)
        s = s / torch.sqrt((s * s).sum(-1, keepdim=True) + 1e-12)
        items = emb / torch.sqrt((emb * emb).sum(-1, keepdim=True) + 1e-12)
        logits = SCALE * s @ items.T
        probs = torch.exp(logits) / torch.exp(logits).sum(1, keepdim=True)
        loss = -torch.log(probs[torch.arange(len(idx)), target]).mean()

        opt.zero_grad()
        loss.backward()
        opt.step()
        losses.append(loss.item())
        top = logits.topk(10, dim=1).indices
        hits = []
        for i in range(len(idx)):
            hits.append(float(target[i].item() in top[i].tolist()))
        hit_rates.append(sum(hits) / len(hits))
    return {"loss": torch.tensor(losses), "hit_rate": torch.tensor(hit_rates), "embedding": emb.detach()}


def after(d: Data) -> dict[str, torch.Tensor]:
    emb, opt = _init(d)
    device, max_len = d["device"], d["max_len"]
    data = {k: torch.tensor(v, device=device) for k, v in d["data"].items()}
    pos_w = 1.0 / (max_len - torch.arange(max_len, device=device, dtype=torch.float32))
    losses, hit_rates = [], []
    for idx in d["batches"]:
        rows = torch.tensor(idx, device=device)
        seq, target = data["sessions"][rows], data["targets"][rows]
        mask = (seq > 0).float()

        e = F.normalize(emb[seq], dim=-1)
        w = mask * pos_w
        s = F.normalize((e * w.unsqueeze(-1)).sum(1) / w.sum(1, keepdim=True), dim=-1)
        logits = SCALE * s @ F.normalize(emb, dim=-1).T
        loss = F.cross_entropy(logits, target)

        opt.zero_grad()
        loss.backward()
        opt.step()
        losses.append(loss.detach())
        top = logits.topk(10, dim=1).indices
        hit_rates.append((top == target[:, None]).any(1).float().mean())
    return {"loss": torch.stack(losses), "hit_rate": torch.stack(hit_rates), "embedding": emb.detach()}
