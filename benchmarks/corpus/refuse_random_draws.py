# corpus: runnable
"""Random draws that look loop-invariant (same shape every step) but are not."""
import torch
import torch.nn as nn

torch.manual_seed(0)
device = "cuda" if torch.cuda.is_available() else "cpu"
B, D = 32, 8
model = nn.Sequential(nn.Linear(D, 16), nn.ReLU(), nn.Linear(16, D)).to(device)
opt = torch.optim.Adam(model.parameters(), lr=1e-2)
clean = torch.randn(256, D, device=device)

for step in range(40):
    x = clean[(step * B) % 256 : (step * B) % 256 + B]
    noise = torch.randn(B, D).to(device)  # paef: expect cpu-then-move; refuse cpu-then-move; refuse redundant-tensor
    keep = torch.bernoulli(torch.full((B, D), 0.9)).to(device)  # paef: ok cpu-then-move; refuse cpu-then-move; refuse redundant-tensor
    recon = model((x + 0.1 * noise) * keep)
    loss = ((recon - x) ** 2).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
print(f"loss {loss.item():.4f}")
