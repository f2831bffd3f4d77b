# corpus: runnable
# Evaluation-style loops whose outputs leave through forward hooks (a list the hook fills,
# used after the loop for a feature-matching step), a hook that registers tensor hooks on
# the activations, and an `@torch.enable_grad()` evaluation function.
import torch
import torch.nn as nn

torch.manual_seed(0)
torch.set_num_threads(1)
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")

net = nn.Sequential(nn.Linear(4, 6), nn.ReLU(), nn.Linear(6, 2)).to(device)
batches = [torch.randn(5, 4) for _ in range(3)]

feats = []
handle = net[1].register_forward_hook(lambda mod, inp, out: feats.append(out))
net.eval()
agree = 0
for xb in batches:
    logits = net(xb.to(device))
    agree += (logits.argmax(-1) == 0).sum().item()
handle.remove()
print("agree", agree)
target = torch.zeros(6, device=device)
match_loss = (torch.cat(feats).mean(0) - target).pow(2).sum()
match_loss.backward()
print("feature grad", round(net[0].weight.grad.abs().sum().item(), 5))

net.zero_grad()
act_grads = []


def track(mod, inp, out):
    out.register_hook(lambda g: act_grads.append(g.abs().sum().item()))


h2 = net[0].register_forward_hook(track)
total = 0.0
for xb in batches:
    pred = net(xb.to(device))
    total += pred.max().item()
h2.remove()
print("max", round(total, 5), len(act_grads))


@torch.enable_grad()
def sensitivity(model, data):
    model.eval()
    scores = []
    for xb in data:
        xb = xb.to(device).requires_grad_(True)
        out = model(xb)
        scores.append(out.sum())
    return scores


s = sensitivity(net, batches)
g = torch.autograd.grad(s[0], net[2].bias)[0]
print("bias grad", [round(v, 5) for v in g.tolist()])
