# corpus: runnable
# Red team 24: evaluation written as generators (`yield` inside the evaluation loop): the loop's
# body runs lazily, interleaved with the consumer's training steps; a grad-mode block opened in
# the generator stays open while the consumer runs between two `yield`s
import torch
from torch import nn

torch.set_num_threads(1)
torch.manual_seed(24)
device = "cuda" if torch.cuda.is_available() else "cpu"
model = nn.Sequential(nn.Linear(6, 8), nn.ReLU(), nn.Linear(8, 2)).to(device)
opt = torch.optim.SGD(model.parameters(), lr=0.05)
loss_fn = nn.CrossEntropyLoss()
val = [(torch.randn(4, 6, device=device), torch.randint(0, 2, (4,), device=device)) for _ in range(3)]
train = [(torch.randn(4, 6, device=device), torch.randint(0, 2, (4,), device=device)) for _ in range(3)]


def validation_scores(batches):
    model.eval()
    for xb, yb in batches:
        logits = model(xb)
        yield (logits.argmax(1) == yb).float().mean()
    model.train()


def predictions(batches):
    for xb, _ in batches:
        out = model(xb)
        yield out.softmax(1)


log = []
for (xt, yt), score in zip(train, validation_scores(val)):
    # one training step between two validation batches
    loss = loss_fn(model(xt), yt)
    opt.zero_grad()
    loss.backward()
    opt.step()
    log.append((round(loss.item(), 5), round(score.item(), 5)))
for p, (xt, yt) in zip(predictions(val), train):
    loss = loss_fn(model(xt), yt) + 0.0 * p.sum()
    opt.zero_grad()
    loss.backward()
    opt.step()
    log.append(round(loss.item(), 5))
print("generators", log, torch.is_grad_enabled())
