# corpus: runnable
"""A tracking-by-detection loop (SORT style) on the device: per frame, an appearance model embeds
the detections, a Kalman filter predicts and updates, and the gating decision and the track score
are read back with `float()` / `.item()`. No backward anywhere. Near-misses: the host-side
bookkeeping, a per-sequence summary, and a stopping test on a Python counter."""
import torch
import torch.nn as nn

torch.manual_seed(0)
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
DT = 0.2

embedder = nn.Sequential(nn.Linear(6, 16), nn.ReLU(), nn.Linear(16, 8)).to(device).eval()
F_ = torch.tensor([[1, 0, DT, 0], [0, 1, 0, DT], [0, 0, 1, 0], [0, 0, 0, 1]], dtype=torch.float32, device=device)
H = torch.eye(2, 4, device=device)
Q = 0.01 * torch.eye(4, device=device)
R = 0.2 * torch.eye(2, device=device)
I4 = torch.eye(4, device=device)

frames = 120
truth = torch.cumsum(torch.full((frames, 2), 0.1) + 0.05 * torch.randn(frames, 2), 0)
detections = (truth + 0.3 * torch.randn(frames, 2)).to(device)
patches = torch.randn(frames, 6).to(device)  # paef: ok cpu-then-move

speeds = []
for t in range(1, frames):  # paef: ok elementwise-loop
    speeds.append((truth[t] - truth[t - 1]).norm().item())

x = torch.zeros(4, device=device)
P = I4.clone()
template = None
gated, score_sum, misses = 0, 0.0, 0
history = []
for t in range(frames):
    x = F_ @ x
    P = F_ @ P @ F_.T + Q
    z = detections[t]
    innov = z - H @ x
    S = H @ P @ H.T + R
    d2 = innov @ torch.linalg.solve(S, innov)
    if float(d2) > 9.0:  # paef: expect host-sync
        gated += 1
        misses += 1
        continue
    K = P @ H.T @ torch.linalg.inv(S)
    x = x + K @ innov
    P = (I4 - K @ H) @ P
    with torch.no_grad():
        emb = embedder(patches[t : t + 1])
    if template is None:
        template = emb
    score = torch.cosine_similarity(emb, template).item()  # paef: expect host-sync
    score_sum += score
    template = 0.9 * template + 0.1 * emb
    history.append(t)
    if t % 50 == 0:
        print(f"frame {t} covariance trace {P.trace().item():.4f}")
    if misses > 5:
        break

final = (x[:2].cpu() - truth[len(history) - 1]).norm().item()
print(f"gated {gated}, tracked {len(history)}, mean speed {sum(speeds) / len(speeds):.3f}, mean score {score_sum / max(len(history), 1):.3f}, final error {final:.3f}")
