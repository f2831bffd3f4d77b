# corpus: runnable
# Red team 62 (blind): noisy-student style self-training on made-up 8-feature data with a few labels. The
# teacher (first trained on the labelled part, then an EMA of the student) gives temperature-softened labels
# for the unlabelled part; the student sees step-seeded noise and dropout-of-features, mixup between
# unlabelled samples with a lambda from NumPy, and a NumPy feature shift per batch. Per-step lambdas and the
# agreement with the teacher are logged.
import numpy as np
import torch
import torch.nn.functional as F

from augment import StepAugment, feature_shift, mixup_lambda
from teacher import ema_into, make_net, soft_labels

torch.manual_seed(6208)
np_gen = np.random.default_rng(6208)
torch.set_num_threads(1)
device = 'cuda' if torch.cuda.is_available() else 'cpu'

D, C, N_LAB, N_UNL, BS = 8, 3, 36, 150, 32
cent = torch.randn(C, D) * 1.6
y_lab = torch.randint(0, C, (N_LAB,))
x_lab = (cent[y_lab] + torch.randn(N_LAB, D)).to(device)
y_lab = y_lab.to(device)
y_unl_true = torch.randint(0, C, (N_UNL,))
x_unl = (cent[y_unl_true] + torch.randn(N_UNL, D)).to(device)

teacher = make_net(D, C).to(device)
topt = torch.optim.Adam(teacher.parameters(), lr=1e-2)
for _ in range(60):
    loss = F.cross_entropy(teacher(x_lab), y_lab)
    topt.zero_grad()
    loss.backward()
    topt.step()

student = make_net(D, C, dropout=0.1).to(device)
sopt = torch.optim.Adam(student.parameters(), lr=5e-3)
aug = StepAugment(seed=62)
step, lam_log, agree = 0, [], []
for epoch in range(3):
    order = torch.randperm(N_UNL, device=device)
    for s in range(0, N_UNL, BS):
        xb = x_unl[order[s:s + BS]]
        B = xb.size(0)
        targets = soft_labels(teacher, xb, temperature=0.7)
        aug.reseed(step)
        xs = aug(xb) + feature_shift(np_gen, B, D, 0.05).to(device)
        lam = mixup_lambda(0.5, np_gen)
        mate = torch.randperm(B, generator=aug.gen).to(device)
        xm = lam * xs + (1 - lam) * xs[mate]
        tm = lam * targets + (1 - lam) * targets[mate]
        logp = F.log_softmax(student(xm), dim=1)
        loss = F.kl_div(logp, tm, reduction="batchmean") + 0.5 * F.cross_entropy(student(x_lab), y_lab)
        sopt.zero_grad()
        loss.backward()
        sopt.step()
        ema_into(teacher, student, 0.9)
        lam_log.append(lam)
        step += 1
    with torch.no_grad():
        student.eval()
        agree.append(round((student(x_unl).argmax(1) == teacher(x_unl).argmax(1)).float().mean().item(), 5))
        student.train()

lam_t = torch.tensor(lam_log)
with torch.no_grad():
    acc = (student.eval()(x_unl).argmax(1).cpu() == y_unl_true).float().mean().item()
print("agree", agree)
print("lam mean", round(lam_t.mean().item(), 6), "acc", round(acc, 5))
print("checksum", round(sum(agree) + lam_t.sum().item() + acc, 5))
