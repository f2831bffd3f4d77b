# corpus: runnable
"""Speaker verification with an x-vector-like TDNN over synthetic MFCC frames: AAM-softmax
training, then trial scoring with cosine similarity; the scores take a detour through NumPy
before score normalisation on the device, and the EER is computed once on the host."""
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
np.random.seed(0)
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
SPK, FRAMES, FEAT = 8, 40, 13


class TDNN(nn.Module):
    def __init__(self):
        super().__init__()
        self.c1 = nn.Conv1d(FEAT, 64, 5, dilation=1)
        self.c2 = nn.Conv1d(64, 64, 3, dilation=2)
        self.emb = nn.Linear(128, 32)

    def forward(self, x):
        h = F.relu(self.c2(F.relu(self.c1(x.transpose(1, 2)))))
        return self.emb(torch.cat([h.mean(2), h.std(2)], 1))


class AAMSoftmax(nn.Module):
    def __init__(self, m=0.2, s=20.0):
        super().__init__()
        self.w = nn.Parameter(torch.randn(SPK, 32))
        self.m, self.s = m, s

    def forward(self, emb, y):
        cos = F.normalize(emb) @ F.normalize(self.w).T
        theta = torch.acos(cos.clamp(-1 + 1e-6, 1 - 1e-6))
        target = torch.cos(theta + self.m)
        logits = torch.where(F.one_hot(y, SPK).bool(), target, cos)
        return F.cross_entropy(self.s * logits, y)


means = torch.randn(SPK, FEAT)
spk = torch.randint(0, SPK, (640,))
utts = means[spk][:, None, :] + torch.randn(640, FRAMES, FEAT)
utts, spk = utts.to(device), spk.to(device)
model, head = TDNN().to(device), AAMSoftmax().to(device)
opt = torch.optim.Adam(list(model.parameters()) + list(head.parameters()), lr=2e-3)
for epoch in range(6):
    perm = torch.randperm(512, device=device)
    for i in range(0, 512, 64):
        idx = perm[i : i + 64]
        loss = head(model(utts[idx]), spk[idx])
        opt.zero_grad()
        loss.backward()
        opt.step()
    print(f"epoch {epoch} aam loss {loss.item():.4f}")

model.eval()
with torch.no_grad():
    emb = F.normalize(model(utts[512:]))
    lab = spk[512:]
    enroll, test = emb[:64], emb[64:]
    trial_scores = []
    targets = []
    for j in range(test.shape[0]):  # paef: ok elementwise-loop
        s = (enroll @ test[j]).cpu().numpy()  # paef: ok host-sync
        s = torch.from_numpy(s).to(device)  # paef: expect ping-pong
        s = (s - s.mean()) / s.std()
        trial_scores.append(s)
        targets.append(lab[:64] == lab[64 + j])
    scores = torch.cat(trial_scores).cpu().numpy()
    is_target = torch.cat(targets).cpu().numpy()
thr = np.sort(scores)
far = np.array([(scores[~is_target] >= t).mean() for t in thr])
frr = np.array([(scores[is_target] < t).mean() for t in thr])
k = np.argmin(np.abs(far - frr))
print(f"EER {(far[k] + frr[k]) / 2:.3f}")
