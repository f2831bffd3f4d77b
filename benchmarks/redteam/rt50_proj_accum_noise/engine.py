"""One epoch of accumulated training: the loss divided by the accumulation count, annealed gradient noise
(Neelakantan et al.) added before clipping, the clipped norm logged and used to skip a step, and a step
callback the caller hands in (it advances the noise clock)."""
import torch
import torch.nn.functional as F


def train_one_epoch(model, opt, batches, device, state, on_step, accum=4, max_norm=1.0, eta=0.3):
    epoch_loss = 0.0
    norms = []
    for i, (xb, yb) in enumerate(batches):
        xb, yb = xb.to(device), yb.to(device)
        loss = F.cross_entropy(model(xb), yb) / accum
        loss.backward()
        epoch_loss += loss.item()
        if (i + 1) % accum:
            continue
        noise_std = torch.tensor(eta / (1 + state['t']) ** 0.55).sqrt()
        for p in model.parameters():
            p.grad.add_(torch.randn(p.shape, generator=state['gen']).to(device) * noise_std.to(device))
        gn = torch.nn.utils.clip_grad_norm_(model.parameters(), max_norm)
        norms.append(gn.item())
        if not torch.isfinite(gn) or gn.item() > 50.0:
            opt.zero_grad()
            continue
        opt.step()
        opt.zero_grad()
        on_step(state)
    return epoch_loss, torch.tensor(norms)
