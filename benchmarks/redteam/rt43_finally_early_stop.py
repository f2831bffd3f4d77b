# corpus: runnable
"""Early stopping by exception: the validation helper raises StopTraining out of the nested loops and the
`finally` block prints the accumulated statistics either way."""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_num_threads(1)
device = 'cuda' if torch.cuda.is_available() else 'cpu'


class StopTraining(Exception):
    pass


g = torch.Generator().manual_seed(4)
X = torch.randn(64, 6, generator=g)
Y = torch.randint(0, 3, (64,), generator=g)
Xv = torch.randn(16, 6, generator=g)
Yv = torch.randint(0, 3, (16,), generator=g)
model = nn.Sequential(nn.Linear(6, 16), nn.ReLU(), nn.Linear(16, 3)).to(device)
opt = torch.optim.SGD(model.parameters(), lr=0.2)


@torch.no_grad()
def validate():
    logits = model(Xv.to(device))
    return F.cross_entropy(logits, Yv.to(device)), (logits.argmax(1) == Yv.to(device)).float().mean()


train_losses = []
val_accs = []
epoch_loss = 0.0
best = float("inf")
try:
    for epoch in range(20):
        epoch_loss = 0.0
        for i in range(0, 64, 16):
            xb, yb = X[i:i + 16].to(device), Y[i:i + 16].to(device)
            loss = F.cross_entropy(model(xb), yb)
            opt.zero_grad()
            loss.backward()
            opt.step()
            epoch_loss += loss.item()
            train_losses.append(loss.item())
            if len(train_losses) == 13:
                raise StopTraining("step cap")
        vloss, vacc = validate()
        val_accs.append(vacc.item())
        print(epoch, "epoch loss %.10f" % epoch_loss, "val %.10f" % vloss.item())
except StopTraining as e:
    print("stopped:", e)
finally:
    print("last epoch_loss", repr(epoch_loss))
    print("train losses", len(train_losses), [round(v, 8) for v in train_losses[-3:]])
    print("val accs", torch.tensor(val_accs), torch.tensor(train_losses).dtype)
