# corpus: runnable
# Training loops that also sum, with `.item()`, what a module named like a loss returns: here the
# "loss" modules are error counters giving int64 tensors, and the running sums start from int 0.
# The sums are printed with integer formats and used as a range bound; summed as float64 tensors
# they would become floats (`7.0`), which `%d` accepts but `range()` and `:d` do not.
import torch
import torch.nn as nn

torch.manual_seed(0)
torch.set_num_threads(1)


class ZeroOneLoss(nn.Module):
    def forward(self, logits, y):
        return (logits.argmax(1) != y).sum()


model = nn.Linear(4, 3)
opt = torch.optim.SGD(model.parameters(), lr=0.5)
ce = nn.CrossEntropyLoss()
loss_fn = ZeroOneLoss()
criterion = ZeroOneLoss()
data = [(torch.randn(8, 4), torch.randint(0, 3, (8,))) for _ in range(4)]

for epoch in range(3):
    train_loss = 0
    eval_loss = 0
    for x, y in data:
        out = model(x)
        loss = ce(out, y)
        opt.zero_grad()
        loss.backward()
        opt.step()
        train_loss += loss_fn(out, y).item()
        eval_loss += criterion(out.detach(), y).item()
    print(f"epoch {epoch} errors {train_loss:d} / {eval_loss:d}", len(list(range(train_loss))), type(eval_loss).__name__)
