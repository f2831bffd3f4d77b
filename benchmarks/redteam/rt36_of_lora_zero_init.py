# corpus: runnable
# Red team 36 (blind): LoRA fine-tuning of a frozen classifier. As in the LoRA paper, B starts at zero so the
# adapter's update is exactly zero at step 0; this variant keeps the update one-sided (non-negative) with
# torch.maximum against zeros, and a zero-initialised bias gate on the head is clipped the same way.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_num_threads(1)


class LoRALinear(nn.Module):
    """A frozen linear layer plus a rank-r update B @ A (B zero-initialised)."""

    def __init__(self, d_in: int, d_out: int, r: int = 4, alpha: float = 8.0):
        super().__init__()
        self.base = nn.Linear(d_in, d_out)
        self.base.requires_grad_(False)
        self.lora_A = nn.Parameter(torch.randn(r, d_in) * 0.2)
        self.lora_B = nn.Parameter(torch.zeros(d_out, r))
        self.scaling = alpha / r

    def forward(self, x):
        delta = (x @ self.lora_A.t()) @ self.lora_B.t() * self.scaling
        delta = torch.maximum(delta, torch.zeros_like(delta))
        return self.base(x) + delta


X = torch.randn(256, 16)
w_true = torch.randn(16, 3)
Y = (X @ w_true).argmax(1)

layer = LoRALinear(16, 3)
head_gate = nn.Parameter(torch.zeros(3))
params = [layer.lora_A, layer.lora_B, head_gate]
opt = torch.optim.SGD(params, lr=0.5)

for epoch in range(6):
    perm = torch.randperm(len(X))
    total = 0.0
    for s in range(0, len(X), 32):
        idx = perm[s : s + 32]
        x, y = X[idx], Y[idx]
        logits = layer(x)
        gate = head_gate.unsqueeze(0).expand_as(logits)
        bonus = torch.maximum(gate, torch.zeros_like(gate))
        loss = F.cross_entropy(logits + bonus, y)
        opt.zero_grad()
        loss.backward()
        opt.step()
        total += float(loss)
    print(f"epoch {epoch} loss {total / 8:.10f} |B| {layer.lora_B.norm().item():.10f} gate {head_gate.tolist()}")

with torch.no_grad():
    acc = (layer(X).argmax(1) == Y).float().mean().item()
print(f"accuracy {acc:.6f}")
print("B row sums", [round(v, 8) for v in layer.lora_B.sum(1).tolist()])
