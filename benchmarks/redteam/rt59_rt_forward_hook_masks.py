# corpus: runnable
# Red team 59 (blind): activation statistics collected with forward hooks. A dict of Python lists gets one row of
# mean activations per batch per layer; every epoch the lists are stacked to find dead units, and the lists are
# cleared. Per batch, the loop builds a fresh "keep" mask of ones; a forward hook on the second hidden layer zeroes
# (in place) the entries of the mask for units that are silent on this batch, and a forward pre-hook on the output
# layer multiplies its input by the mask. Evaluation runs the same hooked model in eval mode.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(5903)
torch.set_num_threads(1)
device = 'cuda' if torch.cuda.is_available() else 'cpu'

N, D, H, C = 640, 16, 48, 3
X = torch.randn(N, D)
Y = (X[:, :3].sum(1) > 0).long() + (X[:, 3] > 1).long()
X, Y = X.to(device), Y.to(device)


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(D, H)
        self.act1 = nn.ReLU()
        self.fc2 = nn.Linear(H, H)
        self.act2 = nn.ReLU()
        self.out = nn.Linear(H, C)

    def forward(self, x):
        return self.out(self.act2(self.fc2(self.act1(self.fc1(x)))))


net = Net().to(device)
opt = torch.optim.Adam(net.parameters(), lr=3e-3)

acts = {"act1": [], "act2": []}
keep = None


def collect(name):
    def hook(module, inputs, output):
        acts[name].append(output.detach().mean(0))
    return hook


def mark_silent(module, inputs, output):
    keep[(output > 0).float().mean(0) < 0.15] = 0.0


def apply_keep(module, inputs):
    return (inputs[0] * keep,)


net.act1.register_forward_hook(collect("act1"))
net.act2.register_forward_hook(collect("act2"))
net.act2.register_forward_hook(mark_silent)
net.out.register_forward_pre_hook(apply_keep)

dead_hist = []
kept_frac = []
for epoch in range(5):
    net.train()
    perm = torch.randperm(N, device=device)
    for i in range(0, N, 64):
        idx = perm[i:i + 64]
        keep = torch.ones(H, device=device)
        loss = F.cross_entropy(net(X[idx]), Y[idx])
        opt.zero_grad()
        loss.backward()
        opt.step()
        kept_frac.append(keep.mean())
    for name in acts:
        rows = torch.stack(acts[name])
        dead_hist.append(int((rows.max(0).values <= 0).sum()))
        acts[name].clear()

net.eval()
correct = 0
logits_all = []
for i in range(0, N, 128):
    keep = torch.ones(H, device=device)
    logits = net(X[i:i + 128])
    logits_all.append(logits)
    correct += (logits.argmax(1) == Y[i:i + 128]).sum().item()
val_rows = {k: torch.stack(v).mean(0) for k, v in acts.items()}

print("dead", dead_hist)
print("kept", round(torch.stack(kept_frac).mean().item(), 5))
print("acc", correct / N)
print("act means", [round(v.sum().item(), 4) for v in val_rows.values()])
print("logit sum", round(torch.cat(logits_all).sum().item(), 3))
