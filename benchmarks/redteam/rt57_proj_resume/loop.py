"""A training loop that can stop at a step and resume from a checkpoint."""
import torch
import torch.nn.functional as F


def run(model, opt, sched, data, device, start, stop, history, rng_state=None, every=4):
    X, Y = data
    if rng_state is not None:
        torch.set_rng_state(rng_state)
    grad_norms = []
    for step in range(start, stop):
        idx = torch.randint(0, len(X), (16,))
        xb, yb = X[idx].to(device), Y[idx].to(device)
        loss = F.smooth_l1_loss(model(xb), yb)
        opt.zero_grad()
        loss.backward()
        gn = torch.nn.utils.clip_grad_norm_(model.parameters(), 0.5)
        grad_norms.append(gn)
        opt.step()
        sched.step()
        history.append(loss.item())
        if step % every == 0:
            print(f'step {step} loss {loss.item():.7f} lr {sched.get_last_lr()[0]:.6f} gn {gn.item():.6f}')
    return grad_norms
