"""Training and evaluation loops of the force field (energy + force matching)."""
import torch.nn.functional as F


def train_epoch(model, opt, batches, device, force_weight=10.0):
    model.train()
    running = 0.0
    for pos, e_ref, f_ref in batches:
        pos, e_ref, f_ref = pos.to(device), e_ref.to(device), f_ref.to(device)
        energy, forces = model(pos)
        loss = F.mse_loss(energy, e_ref) + force_weight * F.mse_loss(forces, f_ref)
        opt.zero_grad()
        loss.backward()
        opt.step()
        running += loss.item()
    return running / len(batches)


def evaluate(model, batches, device):
    model.eval()
    e_mae, f_mae = 0.0, 0.0
    for pos, e_ref, f_ref in batches:
        pos, e_ref, f_ref = pos.to(device), e_ref.to(device), f_ref.to(device)
        energy, forces = model(pos)
        e_mae += (energy - e_ref).abs().mean().item()
        f_mae += (forces - f_ref).abs().mean().item()
    return e_mae / len(batches), f_mae / len(batches)
