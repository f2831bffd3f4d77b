"""Feature extraction with a trained encoder; hands NumPy arrays to the stand-ins."""
import torch


def extract(encoder, X, device, batch=32):
    encoder.eval()
    parts = []
    for b in range(0, len(X), batch):
        z = encoder(X[b:b + batch].to(device))
        parts.append(z.detach())
    feats = torch.cat(parts).cpu()
    return feats, feats.numpy()


def to_labels(np_labels, device):
    return torch.from_numpy(np_labels).to(device)
