# corpus: runnable
# Red team 51 (blind): self-training with soft pseudo-labels. A labelling pass over the unlabelled set
# (model.eval(), no backward in the loop) keeps the teacher's softened probabilities; the student phase
# then fits the same linear classifier to them with a KL loss. Nothing detaches the targets, so the
# student's gradient also flows through the kept targets. Test-time augmentation (a sign flip of the
# symmetric features) reports the accuracy at the end.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(5104)
torch.set_num_threads(1)
device = 'cuda' if torch.cuda.is_available() else 'cpu'

g = torch.Generator().manual_seed(54)
w_true = torch.tensor([[1.5, -1.0, 0.0], [0.5, 1.0, -1.5], [0.0, 0.3, 0.2], [-0.7, 0.0, 0.9]])
X_lab = torch.randn(24, 4, generator=g)
Y_lab = (X_lab @ w_true).argmax(1)
X_unl = torch.randn(48, 4, generator=g)
X_test = torch.randn(32, 4, generator=g)
Y_test = (X_test @ w_true).argmax(1)

clf = nn.Linear(4, 3).to(device)
opt = torch.optim.SGD(clf.parameters(), lr=0.3)

for epoch in range(15):
    loss = F.cross_entropy(clf(X_lab.to(device)), Y_lab.to(device))
    opt.zero_grad()
    loss.backward()
    opt.step()
print('supervised', f'{loss.item():.10f}')

T = 2.0
for rnd in range(3):
    clf.eval()
    soft_targets = []
    for i in range(0, len(X_unl), 8):
        xb = X_unl[i:i + 8].to(device)
        soft_targets.append(F.softmax(clf(xb) / T, dim=1))
    clf.train()
    print('targets', rnd, len(soft_targets), soft_targets[0].shape, f'{soft_targets[0].sum().item():.6f}')

    total = 0.0
    for k, i in enumerate(range(0, len(X_unl), 8)):
        xb = X_unl[i:i + 8].to(device)
        log_p = F.log_softmax(clf(xb) / T, dim=1)
        kl = F.kl_div(log_p, soft_targets[k], reduction='batchmean')
        sup = F.cross_entropy(clf(X_lab.to(device)), Y_lab.to(device))
        loss = sup + kl
        opt.zero_grad()
        loss.backward()
        opt.step()
        total += loss.item()
    print('self-train', rnd, f'{total:.12f}', f'{clf.weight.norm().item():.12f}')

clf.eval()
correct = 0
for xb, yb in zip(X_test.split(8), Y_test.split(8)):
    xb = xb.to(device)
    probs = (F.softmax(clf(xb), 1) + F.softmax(clf(-xb).flip(1), 1)) / 2
    correct += (probs.argmax(1).cpu() == yb).sum().item()
print('tta accuracy', correct / len(Y_test))
print('bias', [round(b, 8) for b in clf.bias.tolist()])
