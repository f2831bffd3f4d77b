# corpus: runnable
import torch
torch.manual_seed(0)
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
model = torch.nn.Linear(4, 2).to(device)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
data = [(torch.randn(8, 4), torch.randint(0, 2, (8,))) for _ in range(4)]
class Trainer:
    def __init__(self, m, o):
        self.m, self.o = m, o
    def train_step(self, x, y):
        loss = torch.nn.functional.cross_entropy(self.m(x), y)
        self.o.zero_grad(); loss.backward(); self.o.step()
        return loss
trainer = Trainer(model, opt)
steps = {"train": trainer.train_step}
for x, y in data:
    x, y = x.to(device), y.to(device)
    out = model(x)
    loss = steps["train"](x, y)
    print(round(loss.item(), 5))
hook = lambda l: l.backward()
for x, y in data:
    x, y = x.to(device), y.to(device)
    out = model(x)
    l = torch.nn.functional.cross_entropy(out, y)
    hook(l)
    opt.step(); opt.zero_grad()
print(model.weight.sum().item())
fn = getattr(trainer, "train_step")
for x, y in data:
    x, y = x.to(device), y.to(device)
    out = model(x)
    print(round(fn(x, y).item(), 5))
