"""Evaluation of a handed model into a handed metric."""


def evaluate(model, loader, metric, device):
    model.eval()
    for x, y in loader:
        out = model(x.to(device))
        metric.update(out.softmax(1)[:, 1], y.to(device))
    model.train()
