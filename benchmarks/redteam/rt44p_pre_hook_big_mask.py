# corpus: runnable
# Red team 44 probe (after first contact, not blind): a forward pre-hook drops a different token column of
# the caller's fresh mask in place on every call; a hoisted mask would accumulate the zeros.
import torch
import torch.nn as nn

torch.manual_seed(0)
torch.set_num_threads(1)
device = 'cuda' if torch.cuda.is_available() else 'cpu'

B, T, D = 64, 128, 16


class MaskedMean(nn.Module):
    def __init__(self):
        super().__init__()
        self.proj = nn.Linear(D, 1)
        self.calls = 0

    def forward(self, x, mask):
        return self.proj((x * mask.unsqueeze(-1)).sum(1) / mask.sum(1, keepdim=True).clamp_min(1.0))


def drop_column(module, args):
    x, mask = args
    module.calls += 1
    mask[:, module.calls % T] = 0.0


model = MaskedMean().to(device)
model.register_forward_pre_hook(drop_column)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
g = torch.Generator().manual_seed(1)
x = torch.randn(B, T, D, generator=g).to(device)
y = torch.randn(B, 1, generator=g).to(device)
for step in range(20):
    mask = torch.ones(B, T, device=device)
    loss = (model(x, mask) - y).pow(2).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
    print(step, "%.10f" % loss.item(), int(mask.sum().item()))
