# corpus: runnable
"""A training script written against Hugging Face Accelerate, with a minimal stand-in for
the library defined here so that it runs anywhere: prepare() moves the model and wraps the
loaders so that batches arrive on the device, backward() replaces loss.backward(),
accumulate() gates the optimizer step, gather_for_metrics() collects predictions."""
import contextlib

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset


class _DeviceLoader:
    def __init__(self, loader, device):
        self.loader, self.device = loader, device

    def __len__(self):
        return len(self.loader)

    def __iter__(self):
        for batch in self.loader:
            yield {k: v.to(self.device) for k, v in batch.items()}  # paef: ok pageable-transfer


class Accelerator:
    """Stand-in for accelerate.Accelerator (one process, no mixed precision)."""

    def __init__(self, gradient_accumulation_steps=1):
        self.device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
        self.gradient_accumulation_steps = gradient_accumulation_steps
        self.step = 0
        self.sync_gradients = True
        self.is_main_process = True

    def prepare(self, *objs):
        out = []
        for o in objs:
            if isinstance(o, nn.Module):
                o = o.to(self.device)
            elif isinstance(o, DataLoader):
                o = _DeviceLoader(o, self.device)
            out.append(o)
        return tuple(out)

    @contextlib.contextmanager
    def accumulate(self, model):
        self.step += 1
        self.sync_gradients = self.step % self.gradient_accumulation_steps == 0
        yield

    def backward(self, loss):
        (loss / self.gradient_accumulation_steps).backward()

    def gather_for_metrics(self, tensors):
        return tensors

    def print(self, *args):
        if self.is_main_process:
            print(*args)


class DictDataset(torch.utils.data.Dataset):
    def __init__(self, x, y):
        self.x, self.y = x, y

    def __len__(self):
        return len(self.y)

    def __getitem__(self, i):
        return {"input": self.x[i], "labels": self.y[i]}


class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(12, 48), nn.ReLU(), nn.Linear(48, 3))

    def forward(self, input, labels=None):
        logits = self.net(input)
        return logits, (F.cross_entropy(logits, labels) if labels is not None else None)


def training_function():
    torch.manual_seed(0)
    accelerator = Accelerator(gradient_accumulation_steps=2)
    X = torch.randn(600, 12)
    Y = (X[:, :3].argmax(1) + (X[:, 3] > 1).long()) % 3
    train_dataloader = DataLoader(DictDataset(X[:480], Y[:480]), batch_size=32, shuffle=True)  # paef: ok pageable-transfer
    eval_dataloader = DataLoader(DictDataset(X[480:], Y[480:]), batch_size=40)  # paef: ok pageable-transfer
    model = Model()
    optimizer = torch.optim.AdamW(model.parameters(), lr=3e-3)
    model, optimizer, train_dataloader, eval_dataloader = accelerator.prepare(model, optimizer, train_dataloader, eval_dataloader)
    for epoch in range(4):
        model.train()
        for step, batch in enumerate(train_dataloader):  # paef: refuse eval-without-no-grad
            with accelerator.accumulate(model):
                _, loss = model(**batch)
                accelerator.backward(loss)
                if accelerator.sync_gradients:
                    optimizer.step()
                    optimizer.zero_grad()
        model.eval()
        correct, total = 0, 0
        for step, batch in enumerate(eval_dataloader):
            with torch.no_grad():
                logits, _ = model(**batch)
            predictions = logits.argmax(dim=-1)
            predictions, references = accelerator.gather_for_metrics((predictions, batch["labels"]))
            correct += (predictions == references).long().sum().item()  # paef: ok host-sync
            total += references.numel()
        accelerator.print(f"epoch {epoch}: accuracy {correct / total:.4f} last loss {loss.item():.4f}")


if __name__ == "__main__":
    training_function()
