# corpus: runnable
# Red team 44 probe (after first contact, not blind): test-time adaptation in a forward hook: when the
# model is in eval mode, the hook takes an entropy-minimisation step on the output it sees.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_num_threads(1)
device = 'cuda' if torch.cuda.is_available() else 'cpu'

g = torch.Generator().manual_seed(9)
X = torch.randn(40, 4, generator=g)
Y = torch.randint(0, 3, (40,), generator=g)
model = nn.Sequential(nn.Linear(4, 8), nn.LayerNorm(8), nn.ReLU(), nn.Linear(8, 3)).to(device)
tta_opt = torch.optim.SGD(model[1].parameters(), lr=0.05)


def adapt(module, inputs, output):
    if not module.training:
        ent = -(output.softmax(1) * output.log_softmax(1)).sum(1).mean()
        tta_opt.zero_grad()
        ent.backward()
        tta_opt.step()


model.register_forward_hook(adapt)
model.eval()
preds = []
for i in range(0, 40, 8):
    out = model(X[i:i + 8].to(device))
    preds.append(out.argmax(1))
print("preds", torch.cat(preds).tolist())
print("ln weight %.10f" % model[1].weight.detach().cpu().sum().item())
