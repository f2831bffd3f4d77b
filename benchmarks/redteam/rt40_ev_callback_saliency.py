# corpus: runnable
# Red team 40 (blind): a Lightning-style module (`training_step` / `validation_step` return dicts) driven
# by a small loop with a list of callbacks. The validation loop carries no `no_grad`; one callback, called
# from inside it, computes input saliency with `torch.autograd.grad` on a fresh forward, and another keeps
# the `validation_step` outputs.
import torch
import torch.nn as nn

torch.manual_seed(42)
torch.set_num_threads(1)
device = "cuda" if torch.cuda.is_available() else "cpu"


class LitClassifier(nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.net = nn.Sequential(nn.Linear(8, 16), nn.GELU(), nn.Linear(16, 4))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.net(x)

    def training_step(self, batch, batch_idx: int) -> dict:
        x, y = batch
        loss = nn.functional.cross_entropy(self(x), y)
        return {"loss": loss}

    def validation_step(self, batch, batch_idx: int) -> dict:
        x, y = batch
        logits = self(x)
        return {"val_loss": nn.functional.cross_entropy(logits, y), "correct": (logits.argmax(1) == y).sum()}


class SaliencyCallback:
    def __init__(self) -> None:
        self.scores: list[float] = []

    def on_validation_batch_end(self, module: nn.Module, outputs: dict, batch, batch_idx: int) -> None:
        x, y = batch
        xr = x.clone().requires_grad_(True)
        picked = module(xr).gather(1, y[:, None]).sum()
        (g,) = torch.autograd.grad(picked, xr)
        self.scores.append(g.abs().mean().item())


class KeepOutputs:
    def __init__(self) -> None:
        self.outputs: list[dict] = []

    def on_validation_batch_end(self, module, outputs, batch, batch_idx) -> None:
        self.outputs.append(outputs)


def fit(module, train, val, callbacks, epochs: int) -> None:
    opt = torch.optim.SGD(module.parameters(), lr=0.1)
    for epoch in range(epochs):
        module.train()
        for i, batch in enumerate(train):
            out = module.training_step(batch, i)
            opt.zero_grad()
            out["loss"].backward()
            opt.step()
        module.eval()
        total, correct = 0.0, 0
        for i, batch in enumerate(val):
            out = module.validation_step(batch, i)
            total += out["val_loss"].item()
            correct += int(out["correct"])
            for cb in callbacks:
                cb.on_validation_batch_end(module, out, batch, i)
        print(epoch, f"{total / len(val):.15f}", correct)


x = torch.randn(160, 8, device=device)
y = (x[:, :4].argmax(1) + (x[:, 4] > 1).long()) % 4
train = [(x[i : i + 16], y[i : i + 16]) for i in range(0, 112, 16)]
val = [(x[i : i + 16], y[i : i + 16]) for i in range(112, 160, 16)]
sal, keep = SaliencyCallback(), KeepOutputs()
fit(LitClassifier().to(device), train, val, [sal, keep], 2)
print([f"{s:.12f}" for s in sal.scores])
print([o["val_loss"].requires_grad for o in keep.outputs[:3]], keep.outputs[0]["val_loss"].grad_fn is not None)
