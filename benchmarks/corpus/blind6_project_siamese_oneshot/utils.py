"""Training utilities: an AverageMeter, checkpoint save/load, and the N-way one-shot evaluation
(one support image per class, the query is assigned to the most similar support)."""
import os
import random

import torch


class AverageMeter:
    def __init__(self):
        self.reset()

    def reset(self):
        self.val = self.avg = self.sum = 0.0
        self.count = 0

    def update(self, val, n=1):
        self.val = val
        self.sum += val * n
        self.count += n
        self.avg = self.sum / self.count


def save_checkpoint(state, is_best, folder):
    path = os.path.join(folder, "last.pt")
    torch.save(state, path)
    if is_best:
        torch.save(state, os.path.join(folder, "best.pt"))


def one_shot_accuracy(model, glyphs, n_way, trials, device):
    model.eval()
    correct = 0
    for _ in range(trials):  # paef: expect eval-without-no-grad
        classes = random.sample(list(glyphs), n_way)
        query_img, support_img = random.sample(glyphs[classes[0]], 2)
        supports = [support_img] + [random.choice(glyphs[c]) for c in classes[1:]]
        query = torch.tensor(query_img).unsqueeze(0).unsqueeze(0).repeat(n_way, 1, 1, 1).to(device)  # paef: ok cpu-then-move; ok pageable-transfer
        support = torch.tensor(supports).unsqueeze(1).to(device)  # paef: ok cpu-then-move; ok pageable-transfer; ok list-to-tensor
        scores = model(query, support)
        if torch.argmax(scores).item() == 0:  # paef: ok host-sync
            correct += 1
    return correct / trials
