# corpus: runnable
# Red team 53 probe (not blind): differentiable physics. A rollout accumulates its cost over time steps
# with the graph on purpose (the cost is differentiated w.r.t. the launch parameters after the loop):
# returned and handed to torch.autograd.grad, kept in an object attribute and back-propagated by the caller,
# gathered into a list summed by a helper, and one total kept only for printing (graph wasted).
import torch

torch.manual_seed(5327)
torch.set_num_threads(1)
device = 'cuda' if torch.cuda.is_available() else 'cpu'

target = torch.tensor([3.0, 0.0], device=device)


def rollout(v0, steps=25, dt=0.05):
    pos = torch.zeros(2, device=device)
    vel = v0
    cost = 0.0
    for t in range(steps):
        acc = torch.stack([torch.zeros((), device=device), torch.full((), -9.81, device=device)]) - 0.1 * vel
        vel = vel + dt * acc
        pos = pos + dt * vel
        cost = cost + 0.01 * (vel ** 2).sum()
        cost += 0.0 * pos.sum()
    return cost + ((pos - target) ** 2).sum()


class Sim:
    def __init__(self):
        self.cost = 0.0

    def run(self, v0, steps=25, dt=0.05):
        pos = torch.zeros(2, device=device)
        vel = v0
        for t in range(steps):
            vel = vel + dt * (torch.tensor([0.0, -9.81], device=device) - 0.1 * vel)
            pos = pos + dt * vel
            self.cost += ((pos - target) ** 2).sum() / steps
        return pos


def total_of(terms):
    out = 0.0
    for term in terms:
        out = out + term
    return out


v = torch.tensor([4.0, 4.0], device=device, requires_grad=True)
trace = []
for it in range(15):
    c = rollout(v)
    g, = torch.autograd.grad(c, v)
    with torch.no_grad():
        v -= 0.05 * g
    trace.append(round(c.item(), 6))

w = torch.tensor([4.0, 4.0], device=device, requires_grad=True)
for it in range(5):
    sim = Sim()
    sim.run(w)
    sim.cost.backward()
    with torch.no_grad():
        w -= 0.05 * w.grad
        w.grad.zero_()
    trace.append(round(sim.cost.item(), 6))

u = torch.tensor([4.0, 4.0], device=device, requires_grad=True)
terms = []
pos = torch.zeros(2, device=device)
vel = u
for t in range(25):
    vel = vel + 0.05 * (torch.tensor([0.0, -9.81], device=device) - 0.1 * vel)
    pos = pos + 0.05 * vel
    terms.append(((pos - target) ** 2).sum())
total_of(terms).backward()
print(trace)
print([round(x, 6) for x in v.tolist()], [round(x, 6) for x in w.tolist()], [round(x, 6) for x in u.grad.tolist()])
