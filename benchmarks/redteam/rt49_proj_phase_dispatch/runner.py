"""Phase runners in four dispatch styles: a `match` on the phase, a dict of steps, `getattr` on a class of
static methods, and a `functools.partial` chosen in one branch only."""
import contextlib
import functools

import torch

from steps import Steps, fit_step, score_step

STEP_TABLE = {'val': score_step}


@contextlib.contextmanager
def evaluating(model):
    was = model.training
    model.eval()
    try:
        yield model
    finally:
        model.train(was)


def run_match(model, opt, batches, phase, device):
    match phase:
        case 'train':
            step = functools.partial(fit_step, opt)
        case 'val' | 'test':
            step = score_step
    total = 0.0
    hits = 0
    for x, y in batches:
        out, loss = step(model, x.to(device), y.to(device))
        total += loss.item()
        hits += (out.argmax(-1) == y.to(device)).sum().item()
    return total, hits


def run_table(model, batches, phase, device):
    total = 0.0
    for x, y in batches:
        out, loss = STEP_TABLE[phase](model, x.to(device), y.to(device))
        total += loss.item()
    return total


def run_getattr(model, batches, phase, device):
    total = 0.0
    for x, y in batches:
        out, loss = getattr(Steps, phase)(model, x.to(device), y.to(device))
        total += loss.item()
    return total


def run_adapted(model, batches, device):
    with evaluating(model):
        total = 0.0
        ents = []
        for x, y in batches:
            ents.append(round(model.adapt(x.to(device)).item(), 8))
            out = model(x.to(device))
            total += (out.argmax(-1) == y.to(device)).float().mean().item()
    return total, ents
