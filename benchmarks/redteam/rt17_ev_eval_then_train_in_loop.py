# corpus: runnable
# Loops that call an evaluation helper (`.eval()` then the model) and ALSO train in the same
# iteration: `model.train()` and a step after the helper, a second model trained next to the
# evaluated one, models held in a dict / list, `self.model` reassigned between eval and train,
# a generator-based loop that trains what it yields. None of these may be wrapped in no_grad.
import torch
from torch import nn

torch.set_num_threads(1)
torch.manual_seed(1)
xs = [torch.randn(5, 3) for _ in range(3)]


def show(tag, module):
    print(tag, [f"{v:.10f}" for v in torch.cat([p.detach().flatten() for p in module.parameters()]).tolist()])


net = nn.Linear(3, 2)
opt = torch.optim.SGD(net.parameters(), lr=0.1)


def validate(x):
    net.eval()
    return net(x).sum().item()


# evaluation, then a training step on the same model through a loss the helper does not see
hist = []
for x in xs:
    hist.append(validate(x))
    net.train()
    loss = net(x).pow(2).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
print("eval-then-train", [f"{h:.10f}" for h in hist])
show("eval-then-train", net)

# one model evaluated, another trained in the same loop through a helper
teacher = nn.Linear(3, 2)
student = nn.Linear(3, 2)
s_opt = torch.optim.SGD(student.parameters(), lr=0.1)


def teach(x):
    teacher.eval()
    return teacher(x)


def learn(x, target):
    s_opt.zero_grad()
    nn.functional.mse_loss(student(x), target).backward()
    s_opt.step()


for x in xs:
    target = teach(x).detach()
    learn(x, target)
show("student", student)

# models held in a dict: the helper evaluates one entry, the loop fine-tunes the other
bank = {"enc": nn.Linear(3, 3), "head": nn.Linear(3, 1)}
h_opt = torch.optim.SGD(bank["head"].parameters(), lr=0.1)


def encode(x):
    bank["enc"].eval()
    return bank["enc"](x)


for x in xs:
    z = encode(x)
    h_opt.zero_grad()
    bank["head"](z.detach()).sum().backward()
    h_opt.step()
show("head", bank["head"])

# a trainer whose `self.model` is swapped between its eval and its use
class Swapper:
    def __init__(self):
        self.frozen = nn.Linear(3, 1)
        self.live = nn.Linear(3, 1)
        self.model = self.frozen
        self.opt = torch.optim.SGD(self.live.parameters(), lr=0.1)

    def eval_batch(self, x):
        self.model.eval()
        out = self.model(x)
        self.model = self.live
        return out

    def fit(self, out):
        self.opt.zero_grad()
        out.sum().backward()
        self.opt.step()
        self.model = self.frozen


sw = Swapper()
for x in xs:
    sw.eval_batch(x)
    sw.fit(sw.model(x))
show("swapper", sw.live)

# a generator loop: the generator evaluates, the consumer trains on what it yields
gen_model = nn.Linear(3, 1)
g_opt = torch.optim.SGD(gen_model.parameters(), lr=0.1)


def run_eval(x):
    gen_model.eval()
    return gen_model(x)


def stream(batches):
    for x in batches:
        yield run_eval(x)


for out in stream(xs):
    g_opt.zero_grad()
    out.mean().backward()
    g_opt.step()
show("stream", gen_model)
