# corpus: runnable
# Summed losses that leave the loop out of sight of a `.backward()` line: a generator yields the
# running sum per chunk and the consumer back-propagates it (truncated BPTT), a closure's
# `nonlocal` sum is returned to the caller, a class-level total is back-propagated by a classmethod.
import torch
import torch.nn as nn

torch.manual_seed(0)
torch.set_num_threads(1)
rnn = nn.RNNCell(3, 4)
head = nn.Linear(4, 1)
opt = torch.optim.SGD(list(rnn.parameters()) + list(head.parameters()), lr=0.05)
seq = torch.randn(8, 2, 3)
target = torch.randn(8, 2, 1)


def chunks(k):
    h = torch.zeros(2, 4)
    for start in range(0, seq.shape[0], k):
        total = 0
        for t in range(start, start + k):
            h = rnn(seq[t], h)
            total += nn.functional.mse_loss(head(h), target[t])
        yield total
        h = h.detach()


for total in chunks(4):
    opt.zero_grad()
    total.backward()
    opt.step()
    print("chunk", round(total.item(), 5))


def make_epoch():
    running = 0

    def run():
        nonlocal running
        h = torch.zeros(2, 4)
        for t in range(seq.shape[0]):
            h = rnn(seq[t], h)
            running += nn.functional.mse_loss(head(h), target[t])
        return running

    return run


loss = make_epoch()()
opt.zero_grad()
loss.backward()
opt.step()
print("closure", round(loss.item(), 5))


class Tally:
    total = 0

    @classmethod
    def flush(cls):
        opt.zero_grad()
        cls.total.backward()
        opt.step()
        return round(cls.total.item(), 5)


h = torch.zeros(2, 4)
for t in range(seq.shape[0]):
    h = rnn(seq[t], h)
    Tally.total += nn.functional.mse_loss(head(h), target[t])
print("class", Tally.flush())
