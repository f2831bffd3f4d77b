# corpus: runnable
# Red team 39 (blind): an inference helper that writes into a preallocated output buffer (`out=`), as
# latency-tuned eval code does to avoid allocations. The top score of each batch is read from the buffer
# with `.item()` into a list, converted at the end.
import torch
import torch.nn as nn

torch.manual_seed(12)
torch.set_num_threads(1)
device = "cuda" if torch.cuda.is_available() else "cpu"

proj = nn.Linear(6, 4).to(device)
feats = torch.randn(40, 6, device=device)
buf = torch.empty(8, 4, device=device)
first_scores = []
pos_fracs = []
with torch.no_grad():
    for s in range(0, 40, 8):
        torch.matmul(feats[s : s + 8], proj.weight.t(), out=buf)
        buf.add_(proj.bias)
        first_scores.append(buf[0, 0].item())
        pos_fracs.append(float(buf[:, 1].gt(0).float().mean()))
scores = torch.tensor(first_scores)
print("scores", [f"{v:.10f}" for v in scores.tolist()])
print("mean", f"{scores.mean().item():.12f}", "pos", f"{torch.tensor(pos_fracs).sum().item():.6f}")
