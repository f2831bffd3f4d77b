# corpus: runnable
"""Two small programs in the style of code seen in public check 23: a graph-regression
notebook's epoch loop, whose `train` returns the last batch's loss (graph and all) beside its
embedding, unpacked and kept in a list every epoch; and a SimCLR-style `Validate.validate`
that clears an optimizer's gradients on every batch but never back-propagates, with the model
in `eval()` and autograd on. Near misses: a step that returns the loss as a number beside the
batch size, and a training loop that clears, back-propagates and steps."""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_num_threads(1)
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")

model = nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 1)).to(device)
optimizer = torch.optim.Adam(model.parameters(), lr=0.01)
graphs = [(torch.randn(6, 4), torch.randn(6, 1)) for _ in range(3)]


def train(data):
    for x, y in data:
        x, y = x.to(device), y.to(device)
        optimizer.zero_grad()
        pred = model(x)
        loss = torch.sqrt(F.mse_loss(pred, y))
        loss.backward()
        optimizer.step()
    return loss, pred


def train_numbers(data):
    for x, y in data:
        x, y = x.to(device), y.to(device)
        optimizer.zero_grad()
        loss = F.mse_loss(model(x), y)
        loss.backward()
        optimizer.step()
    return loss.item(), y.shape[0]


losses, sizes = [], []
for epoch in range(4):
    loss, h = train(graphs)
    losses.append(loss)  # paef: expect graph-retention
    value, n = train_numbers(graphs)
    sizes.append(n)
losses_float = [float(loss.cpu().detach().numpy()) for loss in losses]


class Validate:
    def __init__(self, net):
        self.net = net

    def validate(self, loader):
        opt = torch.optim.Adam(self.net.parameters())
        self.net.eval()
        total, correct = 0, 0
        for x, y in loader:  # paef: expect eval-without-no-grad
            opt.zero_grad()
            x, y = x.to(device), y.to(device)
            _, predict = torch.max(self.net(x).data, 1)
            total += y.shape[0]
            correct += (predict == y).sum().item()  # paef: ok host-sync
        return correct / total


classifier = nn.Linear(4, 3).to(device)
clf_opt = torch.optim.SGD(classifier.parameters(), lr=0.1)
labelled = [(torch.randn(5, 4), torch.randint(0, 3, (5,))) for _ in range(3)]
for x, y in labelled:
    clf_opt.zero_grad()
    F.cross_entropy(classifier(x.to(device)), y.to(device)).backward()
    clf_opt.step()
print(f"regression: {losses_float[-1]:.5f} {sum(sizes)}; accuracy: {Validate(classifier).validate(labelled):.3f}")
