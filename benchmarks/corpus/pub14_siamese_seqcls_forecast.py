# corpus: runnable
"""Three small programs in the style of code seen in public check 14: a Siamese pair loop of
PyTorch 0.3 days that wraps each unpacked batch part in a legacy `Variable` before moving it; a
sequence classifier written for a device but run on the CPU, which decodes each batch from
`data.numpy()` (a device tensor would raise there: nothing crosses) and builds the end index back
into a tensor; and an LSTM-cell forecaster that makes its initial states on the host and moves
them in every forward."""
import numpy as np
import torch
import torch.nn as nn
from torch.autograd import Variable
from torch.utils.data import DataLoader, TensorDataset

torch.manual_seed(0)
torch.set_num_threads(1)
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")


class PairNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(6, 8), nn.ReLU(), nn.Linear(8, 3))

    def forward(self, a, b):
        return self.body(a), self.body(b)


def contrastive(o1, o2, label, margin=2.0):
    d = torch.nn.functional.pairwise_distance(o1, o2)
    return torch.mean((1 - label) * d.pow(2) + label * torch.clamp(margin - d, min=0.0).pow(2))


def siamese(epochs=2):
    pairs = TensorDataset(torch.randn(48, 6), torch.randn(48, 6), (torch.rand(48) > 0.5).float())
    loader = DataLoader(pairs, shuffle=False, batch_size=12)  # paef: ok pageable-transfer
    net = PairNet().to(device)
    optimizer = torch.optim.Adam(net.parameters(), lr=0.01)
    history = []
    for epoch in range(epochs):
        for i, data in enumerate(loader, 0):
            img0, img1, label = data
            img0, img1, label = Variable(img0).to(device), Variable(img1).to(device), Variable(label).to(device)
            out1, out2 = net(img0, img1)
            optimizer.zero_grad()
            loss = contrastive(out1, out2, label)
            loss.backward()
            optimizer.step()
            if i % 2 == 0:
                history.append(round(loss.item(), 4))
    return history


def decode_lengths(arr):
    return [int((row.sum(axis=1) > 0).sum()) for row in arr]


class SeqNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.rnn = nn.RNN(4, 6, batch_first=True)
        self.head = nn.Linear(6, 3)

    def forward(self, x):
        return self.head(self.rnn(x)[0])


def make_batches(n=4, b=8, t=7):
    out = []
    onehot = np.eye(3, dtype=np.float32)
    for _ in range(n):
        x = np.zeros((b, t, 4), dtype=np.float32)
        lengths = np.random.RandomState(len(out)).randint(3, t + 1, size=b)
        for row, length in enumerate(lengths):
            x[row, :length, row % 4] = 1.0
        out.append((x, onehot[lengths % 3]))
    return out


def sequences(epochs=3):
    model = SeqNet()
    optimizer = torch.optim.RMSprop(model.parameters(), lr=0.01)
    batches = make_batches()
    for epoch in range(epochs):
        num_correct = 0
        for data, target in batches:
            data, target = torch.from_numpy(data).to(device), torch.from_numpy(target).to(device)
            output = model(data)
            ends = torch.tensor(decode_lengths(data.numpy())) - 1
            output = output[torch.arange(data.shape[0]), ends, :]  # paef: ok ping-pong
            target = target.argmax(dim=1)
            loss = nn.functional.cross_entropy(output, target)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            num_correct += (output.argmax(dim=1) == target).sum().item()  # paef: ok host-sync
    return num_correct, round(loss.item(), 4)


class Forecaster(nn.Module):
    def __init__(self):
        super().__init__()
        self.cell = nn.LSTMCell(1, 5)
        self.out = nn.Linear(5, 1)
        self.anchor = nn.Parameter(torch.empty(0))

    def forward(self, series, future=0):
        dev = self.anchor.device
        h = torch.zeros(series.size(0), 5, dtype=torch.double).to(dev)  # paef: expect-fix cpu-then-move
        c = torch.zeros(series.size(0), 5, dtype=torch.double).to(dev)  # paef: expect-fix cpu-then-move
        outputs = []
        for x_t in series.split(1, dim=1):  # paef: ok elementwise-loop
            h, c = self.cell(x_t, (h, c))
            outputs.append(self.out(h))
        for _ in range(future):  # paef: ok elementwise-loop
            h, c = self.cell(outputs[-1], (h, c))
            outputs.append(self.out(h))
        return torch.cat(outputs, dim=1)


def forecast(steps=3):
    t = torch.arange(0, 40, dtype=torch.double)
    data = torch.sin(t / 4.0 + torch.arange(5, dtype=torch.double).unsqueeze(1)).to(device)
    model = Forecaster().to(device).double()
    optimizer = torch.optim.LBFGS(model.parameters(), lr=0.5, max_iter=4)
    for step in range(steps):
        def closure():
            optimizer.zero_grad()
            loss = nn.functional.mse_loss(model(data[1:, :-1]), data[1:, 1:])
            loss.backward()
            return loss
        optimizer.step(closure)
        with torch.no_grad():
            pred = model(data[:1, :-1], future=5)
    return [round(v, 4) for v in pred[0, -3:].tolist()]


print(siamese())
print(sequences())
print(forecast())
