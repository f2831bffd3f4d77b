# corpus: runnable
# Red team 59 (blind): a classifier is trained with Adam, then "calibrated" in evaluation mode: temperature
# scaling plus a per-class bias fitted with LBFGS. The closures handed to `optimizer.step` are built by a factory
# and kept in a list (one per validation fold); each closure runs the FROZEN-looking model forward and calls
# backward() itself. The calibration loop looks like an evaluation loop (model.eval(), no optimizer.step of the
# model, accuracies collected with .item()), and the reliability bins are a dict of Python lists.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(5901)
torch.set_num_threads(1)
device = 'cuda' if torch.cuda.is_available() else 'cpu'

N, D, C = 600, 10, 4
centers = torch.randn(C, D) * 1.2
y_all = torch.randint(0, C, (N,))
x_all = centers[y_all] + torch.randn(N, D) * 1.1
x_all, y_all = x_all.to(device), y_all.to(device)
x_tr, y_tr = x_all[:400], y_all[:400]
x_va, y_va = x_all[400:], y_all[400:]

model = nn.Sequential(nn.Linear(D, 32), nn.ReLU(), nn.Dropout(0.2), nn.Linear(32, C)).to(device)
opt = torch.optim.Adam(model.parameters(), lr=1e-2)
for epoch in range(15):
    model.train()
    perm = torch.randperm(400, device=device)
    for i in range(0, 400, 50):
        idx = perm[i:i + 50]
        loss = F.cross_entropy(model(x_tr[idx]), y_tr[idx])
        opt.zero_grad()
        loss.backward()
        opt.step()

# calibration parameters: a temperature and a bias on the last layer's output
log_t = nn.Parameter(torch.zeros(1, device=device))
cls_bias = nn.Parameter(torch.zeros(C, device=device))
head_scale = nn.Parameter(torch.ones(1, device=device))
cal_opt = torch.optim.LBFGS([log_t, cls_bias, head_scale], lr=0.5, max_iter=10)


def make_closure(xs, ys):
    def closure():
        cal_opt.zero_grad()
        # the head's weight is scaled by a learned factor: the gradient flows through the model's forward
        logits = model(xs) * head_scale
        loss = F.cross_entropy(logits / log_t.exp() + cls_bias, ys)
        loss.backward()
        return loss
    return closure


folds = [(x_va[k::3], y_va[k::3]) for k in range(3)]
closures = [make_closure(xs, ys) for xs, ys in folds]

model.eval()
fold_acc = []
fold_nll = []
sens = []
for rnd in range(2):
    for k, (xs, ys) in enumerate(folds):
        nll = cal_opt.step(closures[k])
        logits = model(xs)
        acc = (logits.argmax(1) == ys).float().mean()
        fold_acc.append(acc.item())
        fold_nll.append(nll.item())
        # sensitivity of the fold's calibrated NLL to the temperature, for the log
        g_t, = torch.autograd.grad(F.cross_entropy(logits * head_scale / log_t.exp() + cls_bias, ys), log_t)
        sens.append(g_t)

# reliability diagram: bins of confidences, a dict of Python lists
bins = {b: [] for b in range(5)}
hits = {b: [] for b in range(5)}
for i in range(0, 200, 40):
    xs, ys = x_va[i:i + 40], y_va[i:i + 40]
    probs = F.softmax(model(xs) * head_scale / log_t.exp() + cls_bias, dim=1)
    conf, pred = probs.max(1)
    for c, p, t in zip(conf.tolist(), pred.tolist(), ys.tolist()):
        b = min(int(c * 5), 4)
        bins[b].append(c)
        hits[b].append(float(p == t))

ece = 0.0
for b in range(5):
    if bins[b]:
        conf_b = torch.tensor(bins[b]).mean()
        acc_b = torch.tensor(hits[b]).mean()
        ece += len(bins[b]) / 200 * abs(conf_b - acc_b).item()

print("T", round(log_t.exp().item(), 4), "scale", round(head_scale.item(), 4))
print("bias", [round(v, 4) for v in cls_bias.detach().cpu().tolist()])
print("fold acc", [round(a, 4) for a in fold_acc])
print("fold nll", [round(a, 4) for a in fold_nll])
print("sens", [round(v, 4) for v in torch.cat(sens).tolist()])
print("ece", round(ece, 4))
print("checksum", round(sum(p.detach().abs().sum().item() for p in model.parameters()), 3))
