"""The same epoch written against `import torch as th`."""
import torch as th


def train_epoch(model, batches, opt, device):
    total = 0.0
    for x, y in batches:
        loss = th.nn.functional.cross_entropy(model(x.to(device)), y.to(device))
        opt.zero_grad()
        loss.backward()
        opt.step()
        total += loss.item()
    return total / len(batches)
