"""Multi-crop contrastive loss: each crop's embedding against the first global crop of the same images,
with in-batch negatives. B is the batch it is handed (the last batch is shorter)."""
import torch
import torch.nn.functional as F


def info_nce(anchor, other, tau):
    a = F.normalize(anchor, dim=1)
    o = F.normalize(other, dim=1)
    logits = a @ o.T / tau
    B = a.size(0)
    targets = torch.arange(B, device=a.device)
    return F.cross_entropy(logits, targets)


def multicrop_loss(embeds, tau):
    """embeds: list of (B, E) tensors, one per crop position; embeds[0] is the reference global crop."""
    parts = []
    for z in embeds[1:]:
        parts.append(info_nce(z, embeds[0].detach(), tau))
    return torch.stack(parts).mean(), parts


def uniformity(z, t=2.0):
    z = F.normalize(z, dim=1)
    B = z.size(0)
    off = ~torch.eye(B, dtype=torch.bool, device=z.device)
    sq = torch.cdist(z, z).pow(2)[off]
    return torch.log(torch.exp(-t * sq).mean())
