# corpus: runnable
"""A recurrent cell unrolled in forward(): the loop is part of training, never an evaluation loop."""
import torch
import torch.nn as nn

torch.manual_seed(0)
device = "cuda" if torch.cuda.is_available() else "cpu"


class Unrolled(nn.Module):
    def __init__(self, d_in, d_h):
        super().__init__()
        self.cell = nn.GRUCell(d_in, d_h)
        self.out = nn.Linear(d_h, 1)
        self.d_h = d_h

    def forward(self, seq):
        h = seq.new_zeros(seq.size(0), self.d_h)
        outputs = []
        for t in range(seq.size(1)):  # paef: refuse eval-without-no-grad
            h = self.cell(seq[:, t], h)
            outputs.append(self.out(h))
        return torch.stack(outputs, dim=1)


model = Unrolled(3, 12).to(device)
opt = torch.optim.Adam(model.parameters(), lr=1e-2)
seq = torch.randn(16, 7, 3, device=device)
target = seq.cumsum(1)[..., :1]
for step in range(25):
    loss = nn.functional.mse_loss(model(seq), target)
    opt.zero_grad()
    loss.backward()
    opt.step()
print(f"loss {loss.item():.4f}")
