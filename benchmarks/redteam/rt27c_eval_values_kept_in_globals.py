# corpus: runnable
# Red team 27, wave 3 (probed, not blind): validation loops in eval mode whose summed loss the
# function keeps, after the loop, in a module-level dict / list / object that the training step
# adds to its loss and back-propagates; and one kept through `setattr`.
import torch
from torch import nn

torch.set_num_threads(1)
torch.manual_seed(2708)
CACHE = {}
HISTORY = []


class Box:
    pass


BOX = Box()


def make(seed, n):
    g = torch.Generator().manual_seed(seed)
    return [(torch.randn(6, 4, generator=g), torch.randn(6, 1, generator=g)) for _ in range(n)]


def validate_into_dict(model, val):
    model.eval()
    total = 0.0
    for x, y in val:
        total = total + nn.functional.mse_loss(model(x), y)
    CACHE["val"] = total / len(val)
    model.train()


def validate_into_list(model, val):
    model.eval()
    acc = 0.0
    for x, y in val:
        acc = acc + nn.functional.l1_loss(model(x), y)
    HISTORY.append(acc)
    model.train()


def validate_into_object(model, val):
    model.eval()
    run = 0.0
    for x, y in val:
        run = run + nn.functional.mse_loss(model(x), y)
    setattr(BOX, "penalty", run)
    model.train()


def train(model, data, val, validate, read):
    opt = torch.optim.SGD(model.parameters(), lr=0.05)
    out = []
    for x, y in data:
        validate(model, val)
        loss = nn.functional.mse_loss(model(x), y) + 0.1 * read()
        opt.zero_grad()
        loss.backward()
        opt.step()
        out.append(f"{loss.item():.8f}")
    return out


def step_dict(model, data, val):
    opt = torch.optim.SGD(model.parameters(), lr=0.05)
    out = []
    for x, y in data:
        validate_into_dict(model, val)
        loss = nn.functional.mse_loss(model(x), y) + 0.1 * CACHE["val"]
        opt.zero_grad()
        loss.backward()
        opt.step()
        out.append(f"{loss.item():.8f}")
    return out


def step_list(model, data, val):
    opt = torch.optim.SGD(model.parameters(), lr=0.05)
    out = []
    for x, y in data:
        validate_into_list(model, val)
        loss = nn.functional.mse_loss(model(x), y) + 0.1 * HISTORY[-1]
        opt.zero_grad()
        loss.backward()
        opt.step()
        out.append(f"{loss.item():.8f}")
    return out


def step_object(model, data, val):
    opt = torch.optim.SGD(model.parameters(), lr=0.05)
    out = []
    for x, y in data:
        validate_into_object(model, val)
        loss = nn.functional.mse_loss(model(x), y) + 0.1 * BOX.penalty
        opt.zero_grad()
        loss.backward()
        opt.step()
        out.append(f"{loss.item():.8f}")
    return out


if __name__ == "__main__":
    data, val = make(1, 3), make(2, 2)
    print(step_dict(nn.Linear(4, 1), data, val))
    print(step_list(nn.Linear(4, 1), data, val))
    print(step_object(nn.Linear(4, 1), data, val))
