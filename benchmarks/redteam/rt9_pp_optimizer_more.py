# corpus: runnable
# Second wave (attacks the optimizer fix): snapshots of tensors trained by optimizers that get
# them in parameter-group dicts, through `add_param_group`, and by an optimizer class of the
# program whose constructor only stores them (its `step()` changes them in place).
import torch

torch.manual_seed(0)
torch.set_num_threads(1)
xs, ys = torch.randn(8, 3), torch.randn(8)


class Momentum:
    def __init__(self, params, lr):
        self.params = list(params)
        self.lr = lr

    def zero_grad(self):
        for p in self.params:
            p.grad = None

    @torch.no_grad()
    def step(self):
        for p in self.params:
            p.sub_(self.lr * p.grad)


w1 = torch.zeros(3, requires_grad=True)
w2 = torch.zeros(3, requires_grad=True)
w3 = torch.zeros(3, requires_grad=True)
b = torch.zeros(1, requires_grad=True)
opt1 = torch.optim.SGD([{"params": [w1], "lr": 0.1}])
opt2 = torch.optim.SGD([b], lr=0.1)
opt2.add_param_group({"params": [w2]})
opt3 = Momentum([w3], lr=0.1)
hist = []
for epoch in range(3):
    s1 = torch.tensor(w1.detach().cpu().numpy())
    s2 = torch.tensor(w2.detach().cpu().numpy())
    s3 = torch.tensor(w3.detach().cpu().numpy())
    hist.append((s1, s2, s3))
    for opt, w in ((opt1, w1), (opt2, w2), (opt3, w3)):
        loss = ((xs @ w + b - ys) ** 2).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
print([[t.tolist() for t in h] for h in hist])
