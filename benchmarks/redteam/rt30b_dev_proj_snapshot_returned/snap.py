"""Weight snapshots for a drift monitor: the caller keeps them and compares after training."""
import torch


def snapshot(model, device):
    saved = []
    for p in model.parameters():
        s = torch.tensor(p.detach().cpu().tolist(), device=device)
        saved.append(s)
    return saved


def drift(model, saved):
    return [round((p.detach() - s).abs().sum().item(), 5) for p, s in zip(model.parameters(), saved)]
