"""Train and evaluate loops."""
import torch
import torch.nn.functional as F


def train_epoch(model, loader, optimizer, device):
    model.train()
    losses = []
    for seqs, lens, target in loader:
        seqs, lens, target = seqs.to(device), lens.to(device), target.to(device)
        logits = model(seqs, lens)
        loss = F.cross_entropy(logits, target)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        losses.append(loss.item())  # paef: expect host-sync
    return sum(losses) / len(losses)


def evaluate(model, loader, device, k=5):
    model.eval()
    hits, mrr, n = 0.0, 0.0, 0
    for seqs, lens, target in loader:  # paef: expect-fix eval-without-no-grad
        seqs, lens, target = seqs.to(device), lens.to(device), target.to(device)
        scores = model(seqs, lens)
        topk = scores.topk(k, dim=1).indices.cpu()  # paef: ok host-sync
        target = target.cpu()  # paef: ok host-sync; ok ping-pong
        for row, t in zip(topk, target):  # paef: expect elementwise-loop
            if t in row:
                hits += 1
                mrr += 1.0 / (row.tolist().index(t.item()) + 1)
        n += len(target)
    return hits / n, mrr / n
