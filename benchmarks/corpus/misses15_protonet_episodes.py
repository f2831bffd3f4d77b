# corpus: runnable
"""Few-shot training in the style of a prototypical-networks repository: `init_dataset` builds the
train/val/test loaders and returns them as one tuple, `train` walks a fresh `iter(loader)` per
epoch through a progress bar, validates after each epoch with the same variable names and passes
options (`opt.num_support_tr`) to a loss function it is handed."""
import argparse

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset

torch.manual_seed(0)
torch.set_num_threads(1)
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")


def get_parser():
    parser = argparse.ArgumentParser()
    parser.add_argument("--epochs", type=int, default=3)
    parser.add_argument("--num_support_tr", type=int, default=2)
    parser.add_argument("--num_support_val", type=int, default=2)
    return parser


def tqdm(iterable):
    return iterable  # stand-in progress bar


def prototypical_loss(output, target, n_support):
    """Distances of every sample to each class prototype (the mean of its class's first samples)."""
    classes = torch.unique(target)
    protos = torch.stack([output[target == c][:n_support].mean(0) for c in classes])  # paef: ok host-sync
    logits = -torch.cdist(output, protos)
    labels = torch.searchsorted(classes, target)
    return F.cross_entropy(logits, labels), (logits.argmax(1) == labels).float().mean()


def init_dataset(opt):
    x = torch.randn(120, 16)
    y = torch.arange(120) % 4
    tr_dataloader = DataLoader(TensorDataset(x[:80], y[:80]), batch_size=20, shuffle=True)  # paef: ok pageable-transfer
    val_dataloader = DataLoader(TensorDataset(x[80:100], y[80:100]), batch_size=20)  # paef: ok pageable-transfer
    test_dataloader = DataLoader(TensorDataset(x[100:], y[100:]), batch_size=20)  # paef: ok pageable-transfer
    return tr_dataloader, val_dataloader, test_dataloader


def train(opt, tr_dataloader, model, optim, loss, val_dataloader=None):
    train_loss, val_loss, val_acc = [], [], []
    for epoch in range(opt.epochs):
        tr_iter = iter(tr_dataloader)
        model.train()
        for batch in tqdm(tr_iter):
            optim.zero_grad()
            x, y = batch
            x, y = x.to(device), y.to(device)
            model_output = model(x)
            l, acc = loss(model_output, target=y, n_support=opt.num_support_tr)
            l.backward()
            optim.step()
            train_loss.append(l.item())  # paef: expect host-sync
        if val_dataloader is None:
            continue
        val_iter = iter(val_dataloader)
        model.eval()
        for batch in val_iter:  # paef: expect eval-without-no-grad
            x, y = batch
            x, y = x.to(device), y.to(device)
            model_output = model(x)
            l, acc = loss(model_output, target=y, n_support=opt.num_support_val)
            val_loss.append(l.item())  # paef: ok host-sync
            val_acc.append(acc.item())  # paef: ok host-sync
        print(f"epoch {epoch} train {sum(train_loss[-4:]) / 4:.4f} val {val_loss[-1]:.4f} acc {val_acc[-1]:.3f}")
    return train_loss, val_loss


def main():
    options = get_parser().parse_args([])
    tr_dataloader, val_dataloader, test_dataloader = init_dataset(options)
    model = nn.Sequential(nn.Linear(16, 32), nn.ReLU(), nn.Linear(32, 8)).to(device)
    optim = torch.optim.Adam(model.parameters(), lr=1e-2)
    train(opt=options, tr_dataloader=tr_dataloader, model=model, optim=optim, loss=prototypical_loss,
          val_dataloader=val_dataloader)
    model.eval()
    with torch.no_grad():
        accs = [prototypical_loss(model(x.to(device)), y.to(device), 2)[1].item() for x, y in test_dataloader]  # paef: ok host-sync
    print(f"test acc {sum(accs) / len(accs):.3f}")


main()
