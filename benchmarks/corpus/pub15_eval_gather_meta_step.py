# corpus: runnable
"""Three small programs in the style of code seen in public check 15: an intent classifier's
trainer that gathers evaluation logits into NumPy arrays batch by batch (the first batch seeds
each array, `np.append` grows it) for metrics after the loop; a keypoint evaluation that flips
each batch, runs a model it is given as a parameter, un-flips the heatmaps with a NumPy helper
and moves them back, then writes the batch's predictions into an array made before the loop; and
a first-order meta step that builds a dummy batch on the host and moves it with a dtype change.
The evaluation and the meta step are reached through a table, as from another module's loop."""
import numpy as np
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset

torch.manual_seed(0)
torch.set_num_threads(1)
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")


def evaluate(model, dataset):
    loader = DataLoader(dataset, batch_size=8)  # paef: ok pageable-transfer
    model.eval()
    eval_loss, steps = 0.0, 0
    preds, labels = None, None
    for batch in loader:
        batch = tuple(t.to(device) for t in batch)
        with torch.no_grad():
            logits = model(batch[0])
            eval_loss += nn.functional.cross_entropy(logits, batch[1]).item()  # paef: ok host-sync
        steps += 1
        if preds is None:
            preds = logits.detach().cpu().numpy()
            labels = batch[1].detach().cpu().numpy()
        else:
            preds = np.append(preds, logits.detach().cpu().numpy(), axis=0)
            labels = np.append(labels, batch[1].detach().cpu().numpy(), axis=0)
    return round(eval_loss / steps, 4), float((np.argmax(preds, axis=1) == labels).mean())


def train_intents(epochs=2):
    data = TensorDataset(torch.randn(64, 10), torch.randint(0, 4, (64,)))
    loader = DataLoader(data, shuffle=False, batch_size=16)  # paef: ok pageable-transfer
    model = nn.Sequential(nn.Linear(10, 16), nn.ReLU(), nn.Linear(16, 4)).to(device)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    tr_loss, global_step = 0.0, 0
    for _ in range(epochs):
        for batch in loader:
            model.train()
            batch = tuple(t.to(device) for t in batch)
            loss = nn.functional.cross_entropy(model(batch[0]), batch[1])
            loss.backward()
            tr_loss += loss.item()  # paef: expect-fix host-sync
            optimizer.step()
            model.zero_grad()
            global_step += 1
    return round(tr_loss / global_step, 4), evaluate(model, data)


def flip_back(heatmaps, pairs):
    flipped = heatmaps[:, :, :, ::-1].copy()
    for a, b in pairs:
        flipped[:, [a, b]] = flipped[:, [b, a]]
    return flipped


def validate(loader, model, n):
    model.eval()
    all_preds = np.zeros((n, 3), dtype=np.float32)
    idx = 0
    with torch.no_grad():
        for (images,) in loader:
            output = model(images.to(device))
            flipped = model(torch.from_numpy(np.flip(images.numpy(), 3).copy()).to(device))
            flipped = flip_back(flipped.cpu().numpy(), [(0, 1)])
            flipped = torch.from_numpy(flipped.copy()).to(device)  # paef: expect ping-pong
            output = (output + flipped) * 0.5
            m = output.size(0)
            preds = output.clone().cpu().numpy().reshape(m, 3, -1).max(axis=2)
            all_preds[idx:idx + m] = preds
            idx += m
    return np.round(all_preds.sum(axis=0), 3).tolist()


def meta_step(model, optimiser, x, k_way, device):
    data_shape = x.shape[1:]
    logits = model(torch.zeros((k_way, ) + data_shape).to(device, dtype=torch.double))  # paef: expect-fix cpu-then-move
    loss = logits.pow(2).mean() + model(x.double().to(device)).mean()
    optimiser.zero_grad()
    loss.backward()
    optimiser.step()
    return loss.detach()


if __name__ == "__main__":
    print(train_intents())
    heads = nn.Conv2d(2, 3, 3, padding=1).to(device)
    images = TensorDataset(torch.randn(12, 2, 4, 4))
    learner = nn.Linear(5, 1).double().to(device)
    sgd = torch.optim.SGD(learner.parameters(), lr=0.05)
    tasks = {"validate": validate, "first-order": meta_step}  # their callers live in other modules upstream
    print(tasks["validate"](DataLoader(images, batch_size=4), heads, 12))
    print([round(tasks["first-order"](learner, sgd, torch.randn(6, 5), 4, device).item(), 4) for _ in range(3)])
