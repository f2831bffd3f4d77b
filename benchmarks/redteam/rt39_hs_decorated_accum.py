# corpus: runnable
# Red team 39 (blind): the program's own helpers carry `@torch.no_grad()` as a decorator (evaluation and a
# gradient-norm probe), training uses accumulation with `loss / k` and logs `loss.item() * k`; the
# gradient-norm probe reads `.grad` while the accumulated gradients are still there. Weight tying between
# an embedding and the output head.
import torch
import torch.nn as nn

torch.manual_seed(14)
torch.set_num_threads(1)
device = "cuda" if torch.cuda.is_available() else "cpu"


class TiedLM(nn.Module):
    def __init__(self, vocab: int, dim: int) -> None:
        super().__init__()
        self.emb = nn.Embedding(vocab, dim)
        self.head = nn.Linear(dim, vocab, bias=False)
        self.head.weight = self.emb.weight

    def forward(self, ids: torch.Tensor) -> torch.Tensor:
        return self.head(torch.tanh(self.emb(ids)))


@torch.no_grad()
def grad_norm(model: nn.Module) -> float:
    return sum(p.grad.pow(2).sum().item() for p in model.parameters() if p.grad is not None) ** 0.5


@torch.no_grad()
def evaluate(model: nn.Module, ids: torch.Tensor, tgt: torch.Tensor) -> float:
    total = 0.0
    for s in range(0, ids.size(0), 8):
        logits = model(ids[s : s + 8])
        total += nn.functional.cross_entropy(logits, tgt[s : s + 8], reduction="sum").item()
    return total / ids.size(0)


model = TiedLM(11, 6).to(device)
opt = torch.optim.Adam(model.parameters(), lr=0.01)
ids = torch.randint(0, 11, (64,), device=device)
tgt = torch.roll(ids, 1)
k = 4
for epoch in range(2):
    running = 0.0
    norms = []
    for i, s in enumerate(range(0, 64, 4)):
        loss = nn.functional.cross_entropy(model(ids[s : s + 4]), tgt[s : s + 4]) / k
        loss.backward()
        running += loss.item() * k
        if (i + 1) % k == 0:
            norms.append(grad_norm(model))
            opt.step()
            opt.zero_grad(set_to_none=True)
    print(epoch, f"{running:.15f}", [f"{n:.10f}" for n in norms], f"{evaluate(model, ids, tgt):.15f}")
print("tied", model.head.weight is model.emb.weight)
