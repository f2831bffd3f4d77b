# corpus: runnable
"""A constant-velocity Kalman filter written with torch tensors tracking a noisy 2-D target
(the motion-model half of SORT-style trackers): the transition, observation and noise matrices
are rebuilt every frame although dt never changes, and the innovation norm is read per frame."""
import torch

torch.manual_seed(0)
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
DT = 0.1


def predict(x, P):
    F_ = torch.tensor([[1, 0, DT, 0], [0, 1, 0, DT], [0, 0, 1, 0], [0, 0, 0, 1]], dtype=torch.float32, device=device)  # paef: expect redundant-tensor
    Q = 0.01 * torch.eye(4, device=device)  # paef: expect redundant-tensor
    return F_ @ x, F_ @ P @ F_.T + Q


def update(x, P, z):
    H = torch.eye(2, 4, device=device)  # paef: expect redundant-tensor
    R = 0.25 * torch.eye(2, device=device)  # paef: expect redundant-tensor
    innov = z - H @ x
    S = H @ P @ H.T + R
    K = P @ H.T @ torch.linalg.inv(S)
    return x + K @ innov, (torch.eye(4, device=device) - K @ H) @ P, innov  # paef: expect redundant-tensor


truth = torch.zeros(200, 4)
truth[0] = torch.tensor([0.0, 0.0, 1.0, 0.5])
for t in range(1, 200):  # paef: ok elementwise-loop
    truth[t, :2] = truth[t - 1, :2] + DT * truth[t - 1, 2:]
    truth[t, 2:] = truth[t - 1, 2:] + 0.05 * torch.randn(2)
obs = (truth[:, :2] + 0.5 * torch.randn(200, 2)).to(device)

x = torch.zeros(4, device=device)
P = torch.eye(4, device=device)
err, big = 0.0, 0
for t in range(200):
    x, P = predict(x, P)
    x, P, innov = update(x, P, obs[t])
    if innov.norm() > 1.5:  # paef: expect host-sync
        big += 1
    err += (x[:2].cpu() - truth[t, :2]).norm().item()  # paef: expect host-sync
print(f"mean position error {err / 200:.3f}, large innovations {big}")
