"""Plain accuracy evaluation of a handed model."""


def accuracy(model, batches, device):
    model.eval()
    correct, seen = 0, 0
    for x, y in batches:
        pred = model(x.to(device)).argmax(1)
        correct += (pred.cpu() == y).sum().item()
        seen += len(y)
    model.train()
    return correct / seen
