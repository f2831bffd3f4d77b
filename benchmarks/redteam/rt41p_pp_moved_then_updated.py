# corpus: runnable
"""Red team 41 probe (not blind): particle simulation that logs every frame. `frame = pos.to(device)`
takes a device copy of the positions BEFORE `pos` is advanced in place; the frame is read back with
`.tolist()` after the update. Dropping the move makes `frame` an alias of `pos` (the logged frame is
the next step's positions on a GPU)."""
import torch

torch.manual_seed(0)
device = 'cuda' if torch.cuda.is_available() else 'cpu'

pos = torch.zeros(4, 2)
vel = torch.randn(4, 2)
frames = []
for step in range(3):
    frame = pos.to(device)
    pos.add_(vel * 0.1)
    frames.append(frame.tolist())
print("frames", [[round(v, 6) for row in f for v in row] for f in frames])

state = torch.arange(6, dtype=torch.float32)
seen = []
for step in range(3):
    obs = state.to(device)
    state.mul_(2.0)
    seen.append(obs.sum().item() if False else obs.tolist())
print("seen", seen)
