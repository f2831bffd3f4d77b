# corpus: runnable
"""A binary text classifier (bag of embeddings) whose evaluation gathers predictions, scores and
labels for NumPy metrics computed after the loop, written every way public code writes the copy:
`.cpu().detach().numpy().tolist()`, `.detach().cpu()`, `.detach().cpu().numpy()`, `list +=`.
The same evaluation also logs per batch (`print` of a `.cpu().detach().numpy()` value, a running
accuracy added up on the host) and the training step gathers its own predictions per step: those
wait for the device on every step."""
import numpy as np
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset

torch.manual_seed(0)
torch.set_num_threads(1)
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
VOCAB, LEN = 50, 12


class BagClassifier(nn.Module):
    def __init__(self):
        super().__init__()
        self.emb = nn.EmbeddingBag(VOCAB, 16)
        self.fc = nn.Linear(16, 2)

    def forward(self, tokens):
        return self.fc(self.emb(tokens))


def make_split(n, seed):
    g = torch.Generator().manual_seed(seed)
    tokens = torch.randint(0, VOCAB, (n, LEN), generator=g)
    labels = (tokens[:, :3].sum(1) > 3 * VOCAB // 2).long()
    return TensorDataset(tokens, labels)


def roc_auc(labels, scores):
    order = np.argsort(scores)
    ranks = np.empty(len(scores))
    ranks[order] = np.arange(1, len(scores) + 1)
    pos = labels == 1
    n_pos, n_neg = pos.sum(), (~pos).sum()
    return float((ranks[pos].sum() - n_pos * (n_pos + 1) / 2) / max(n_pos * n_neg, 1))


def evaluate(model, loader, verbose=False):
    model.eval()
    y_true, y_pred, y_score, batch_losses, logits_all = [], [], [], [], []
    running_acc = 0.0
    with torch.no_grad():
        for step, (tokens, labels) in enumerate(loader):
            tokens, labels = tokens.to(device), labels.to(device)
            out = model(tokens)
            loss = nn.functional.cross_entropy(out, labels)
            y_pred.extend(out.argmax(1).cpu().detach().numpy().tolist())
            y_score.append(torch.softmax(out, 1)[:, 1].detach().cpu())
            y_true += labels.cpu().numpy().tolist()
            batch_losses.append(loss.cpu().detach().numpy())
            logits_all.append(out.detach().cpu().numpy())
            running_acc += (out.argmax(1) == labels).float().mean().cpu().detach().numpy()  # paef: ok host-sync
            if verbose:
                print(f"eval batch {step} loss {loss.cpu().detach().numpy():.4f}")  # paef: ok host-sync
    y_true, y_pred = np.array(y_true), np.array(y_pred)
    scores = torch.cat(y_score).numpy()
    logits = np.concatenate(logits_all)
    return {"acc": float((y_true == y_pred).mean()), "auc": roc_auc(y_true, scores), "loss": float(np.mean(batch_losses)),
            "running_acc": running_acc / len(loader), "margin": float(np.abs(logits[:, 1] - logits[:, 0]).mean())}


model = BagClassifier().to(device)
opt = torch.optim.Adam(model.parameters(), lr=1e-2)
train_loader = DataLoader(make_split(512, 0), batch_size=32, shuffle=True, pin_memory=torch.cuda.is_available())
val_loader = DataLoader(make_split(128, 1), batch_size=64, pin_memory=torch.cuda.is_available())

for epoch in range(3):
    model.train()
    train_pred, train_true = [], []
    for tokens, labels in train_loader:
        tokens, labels = tokens.to(device, non_blocking=True), labels.to(device, non_blocking=True)
        out = model(tokens)
        loss = nn.functional.cross_entropy(out, labels)
        opt.zero_grad()
        loss.backward()
        opt.step()
        train_pred.extend(out.argmax(1).cpu().detach().numpy().tolist())  # paef: expect host-sync
        train_true.append(labels.detach().cpu())  # paef: expect host-sync
    train_acc = float((np.array(train_pred) == torch.cat(train_true).numpy()).mean())
    metrics = evaluate(model, val_loader, verbose=epoch == 2)
    print(f"epoch {epoch} train acc {train_acc:.3f} " + " ".join(f"{k} {v:.4f}" for k, v in metrics.items()))
