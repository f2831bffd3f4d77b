# corpus: runnable
# Red team 29a, wave 1 (blind): a trainer whose `fit` takes the loss log from its caller (a fresh
# list, or the log of a checkpoint when resuming) and reports the median of the whole log each epoch.
# The script pretrains, "checkpoints" the log as plain floats, then resumes fine-tuning with it.
import argparse
import copy

import torch
from torch import nn

torch.set_num_threads(1)


def fit(model, opt, batches, epochs, loss_log, tag):
    criterion = nn.CrossEntropyLoss()
    for epoch in range(epochs):
        for xb, yb in batches:
            loss = criterion(model(xb), yb)
            opt.zero_grad()
            loss.backward()
            opt.step()
            loss_log.append(loss.item())
        whole = torch.tensor(loss_log)
        print(f"{tag} epoch {epoch} steps {len(loss_log)} median {whole.median().item():.5f} "
              f"max {whole.max().item():.5f}")
    return loss_log


def save_checkpoint(model, loss_log):
    return {"model": copy.deepcopy(model.state_dict()), "loss_log": [float(v) for v in loss_log]}


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--pretrain-epochs", type=int, default=2)
    parser.add_argument("--finetune-epochs", type=int, default=2)
    args = parser.parse_args([])
    gen = torch.Generator().manual_seed(1)
    x = torch.randn(240, 10, generator=gen)
    y = (x[:, :3].sum(1) > 0).long() + (x[:, 3] > 1).long()
    batches = [(x[i:i + 40], y[i:i + 40]) for i in range(0, 240, 40)]
    torch.manual_seed(1)
    model = nn.Sequential(nn.Linear(10, 32), nn.ReLU(), nn.Linear(32, 3))
    opt = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
    log = fit(model, opt, batches, args.pretrain_epochs, [], "pretrain")
    ckpt = save_checkpoint(model, log)

    model.load_state_dict(ckpt["model"])
    for group in opt.param_groups:
        group["lr"] = 0.02
    resumed = fit(model, opt, batches, args.finetune_epochs, list(ckpt["loss_log"]), "finetune")
    print("final", len(resumed), round(sum(resumed[-6:]) / 6, 5))


if __name__ == "__main__":
    main()
