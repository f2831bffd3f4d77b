"""Phase 1: linear probe on features computed once under no_grad (a bank of per-batch tensors).
Phase 2: the stem stays frozen (its output under no_grad, cached once), the top block and the head train;
the hook's recorded top output feeds an activation penalty, so it must keep its graph."""
import torch
import torch.nn.functional as F


def build_bank(encoder, x, batch):
    encoder.eval()
    bank, mids = [], []
    with torch.no_grad():
        for i in range(0, x.shape[0], batch):
            mid = encoder.stem(x[i:i + batch])
            mids.append(mid)
            bank.append(encoder.top(mid))
    return bank, mids


def probe(head, bank, y, batch, epochs, lr):
    opt = torch.optim.SGD(head.parameters(), lr=lr)
    sizes = torch.tensor([b.shape[0] for b in bank])
    offsets = torch.cumsum(sizes, 0) - sizes
    curve = []
    for _ in range(epochs):
        total = 0.0
        for k, feats in enumerate(bank):
            start = int(offsets[k])
            loss = F.cross_entropy(head(feats), y[start:start + feats.shape[0]])
            opt.zero_grad()
            loss.backward()
            opt.step()
            total += loss.item()
        curve.append(total / len(bank))
    return curve


def finetune_top(encoder, head, mids, y, batch, epochs, store, penalty):
    params = list(encoder.top.parameters()) + list(head.parameters())
    opt = torch.optim.Adam(params, lr=3e-3)
    curve = []
    act_log = []
    for _ in range(epochs):
        total = 0.0
        for k, mid in enumerate(mids):
            yb = y[k * batch:k * batch + mid.shape[0]]
            feats = encoder.top(mid)
            act = store['top']
            loss = F.cross_entropy(head(feats), yb) + penalty * act.pow(2).mean()
            opt.zero_grad()
            loss.backward()
            opt.step()
            total += loss.item()
            act_log.append(act.abs().mean().item())
        curve.append(total / len(mids))
    return curve, act_log
