# corpus: runnable
# Red team 39 (blind): adversarial training with a PGD attack. Each batch starts its perturbation from zeros
# of a fixed shape, turns on `requires_grad` by attribute assignment, and steps along the sign of its
# gradient; the model is frozen (`requires_grad_(False)`) during the attack and unfrozen afterwards.
import torch
import torch.nn as nn

torch.manual_seed(16)
torch.set_num_threads(1)
device = "cuda" if torch.cuda.is_available() else "cpu"
BATCH, FEAT = 6, 4
EPS, ALPHA, STEPS = 0.3, 0.1, 3

model = nn.Sequential(nn.Linear(FEAT, 8), nn.ReLU(), nn.Linear(8, 3)).to(device)
opt = torch.optim.SGD(model.parameters(), lr=0.05)
x = torch.randn(36, FEAT, device=device)
y = torch.randint(0, 3, (36,), device=device)


def set_frozen(net: nn.Module, frozen: bool) -> None:
    for p in net.parameters():
        p.requires_grad_(not frozen)


for epoch in range(2):
    adv_total = 0.0
    for s in range(0, 36, BATCH):
        xb, yb = x[s : s + BATCH], y[s : s + BATCH]
        delta = torch.zeros(BATCH, FEAT, device=device)
        delta.requires_grad = True
        set_frozen(model, True)
        for _ in range(STEPS):
            attack = nn.functional.cross_entropy(model(xb + delta), yb)
            attack.backward()
            delta.data = (delta + ALPHA * delta.grad.sign()).clamp(-EPS, EPS)
        set_frozen(model, False)
        loss = nn.functional.cross_entropy(model(xb + delta.detach()), yb)
        opt.zero_grad()
        loss.backward()
        opt.step()
        adv_total += loss.item()
        print(epoch, s, f"{delta.detach().abs().sum().item():.8f}", f"{delta.grad.abs().sum().item():.8f}")
    print("epoch", epoch, f"{adv_total:.12f}")
