# corpus: runnable
"""Loops written with `while` that carry state on the device from one round to the next, and
read a value back on every round: a constant-velocity tracker fed from a detection stream until
it runs dry (`while True:` ... `break`), Langevin sampling from a learned energy until a step
budget is spent (`while step < n_steps:`), and a mean-shift mode search run until the shift is
small (`while not converged:`), whose stopping test is the program's own need. Near-misses: a
`while` over host numbers, a `while` that reads only every 25 rounds, a state started on the
host, a loop reading its value once after it ends."""
import torch
import torch.nn as nn

torch.manual_seed(0)
torch.set_num_threads(1)
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
DT = 0.1

F_ = torch.tensor([[1, 0, DT, 0], [0, 1, 0, DT], [0, 0, 1, 0], [0, 0, 0, 1]], dtype=torch.float32, device=device)
H = torch.eye(2, 4, device=device)
Q = 0.01 * torch.eye(4, device=device)
R = 0.3 * torch.eye(2, device=device)
I4 = torch.eye(4, device=device)


def detections(n):
    truth = torch.cumsum(torch.full((n, 2), 0.1) + 0.05 * torch.randn(n, 2), 0)
    for t in range(n):
        yield (truth[t] + 0.3 * torch.randn(2)).to(device)


stream = detections(80)
x = torch.zeros(4, device=device)
P = I4.clone()
frame, gated, nis_sum = 0, 0, 0.0
while True:
    z = next(stream, None)
    if z is None:
        break
    x = F_ @ x
    P = F_ @ P @ F_.T + Q
    innov = z - H @ x
    S = H @ P @ H.T + R
    nis = innov @ torch.linalg.solve(S, innov)
    nis_sum += nis.item()  # paef: expect host-sync
    if nis > 9.0:  # paef: expect host-sync
        gated += 1
        frame += 1
        continue
    K = P @ H.T @ torch.linalg.inv(S)
    x = x + K @ innov
    P = (I4 - K @ H) @ P
    frame += 1
print(f"frames {frame} gated {gated} mean NIS {nis_sum / frame:.3f} state {x.cpu().numpy().round(3)}")

energy = nn.Sequential(nn.Linear(2, 32), nn.SiLU(), nn.Linear(32, 1)).to(device)
for p in energy.parameters():
    p.requires_grad_(False)
samples = torch.randn(256, 2, device=device)
step, n_steps, step_size = 0, 60, 0.01
trace = []
while step < n_steps:
    samples.requires_grad_(True)
    e = energy(samples).sum()
    grad, = torch.autograd.grad(e, samples)
    samples = (samples - step_size * grad + (2 * step_size) ** 0.5 * torch.randn_like(samples)).detach()
    trace.append(e.item())  # paef: expect host-sync
    step += 1
print(f"langevin energy first {trace[0]:.3f} last {trace[-1]:.3f}")

points = torch.cat([torch.randn(200, 2) + 2, torch.randn(200, 2) - 2]).to(device)
mode = points[:1].clone()
converged, rounds = False, 0
while not converged:
    w = torch.exp(-((points - mode) ** 2).sum(1) / 2)
    new_mode = (w[:, None] * points).sum(0, keepdim=True) / w.sum()
    shift = (new_mode - mode).norm()
    mode = new_mode
    converged = bool(shift < 1e-4) or rounds > 200  # paef: ok host-sync
    rounds += 1
print(f"mean shift rounds {rounds} mode {mode.cpu().numpy().round(3)}")

# Near-miss: a `while` over host numbers (no device state).
lr, epochs_left = 1.0, 10
while epochs_left > 0:
    lr = lr * 0.9
    epochs_left -= 1

# Near-miss: device state, read every 25 rounds only.
v = torch.ones(3, device=device)
A = torch.eye(3, device=device) * 0.99
k = 0
while k < 100:
    v = A @ v
    if k % 25 == 0:
        print(f"round {k} norm {v.norm().item():.4f}")
    k += 1

# Near-miss: the state starts on the host.
u = torch.ones(3)
j = 0
while j < 5:
    u = u * 0.5
    print(f"host state {u.sum().item():.4f}")
    j += 1

# Near-miss: device state read once, after the loop.
s = torch.zeros(3, device=device)
i = 0
while i < 50:
    s = A @ s + 1
    i += 1
print(f"final {s.sum().item():.4f} lr {lr:.4f}")
