# corpus: runnable
"""RLHF-style reward model: a GRU encoder scores a chosen and a rejected response, trained with
the Bradley-Terry pairwise loss; pair accuracy is accumulated per batch on the host and the
epoch loss keeps every batch's graph alive."""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
VOCAB, LEN, N = 50, 12, 512


class RewardModel(nn.Module):
    def __init__(self):
        super().__init__()
        self.emb = nn.Embedding(VOCAB, 32)
        self.rnn = nn.GRU(32, 64, batch_first=True)
        self.head = nn.Linear(64, 1)

    def forward(self, ids):
        _, h = self.rnn(self.emb(ids))
        return self.head(h[-1]).squeeze(-1)


good_tokens = torch.arange(VOCAB) < VOCAB // 2
chosen = torch.randint(0, VOCAB, (N, LEN))
rejected = torch.randint(0, VOCAB, (N, LEN))
swap = good_tokens[chosen].sum(1) < good_tokens[rejected].sum(1)
chosen[swap], rejected[swap] = rejected[swap].clone(), chosen[swap].clone()
chosen, rejected = chosen.to(device), rejected.to(device)

model = RewardModel().to(device)
opt = torch.optim.AdamW(model.parameters(), lr=3e-3)
BATCH = 64
for epoch in range(5):
    perm = torch.randperm(N, device=device)
    epoch_loss, correct = 0.0, 0
    for i in range(0, N, BATCH):
        idx = perm[i : i + BATCH]
        r_c, r_r = model(chosen[idx]), model(rejected[idx])
        loss = -F.logsigmoid(r_c - r_r).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
        epoch_loss += loss  # paef: expect graph-retention
        correct += (r_c > r_r).sum().item()  # paef: expect host-sync
    print(f"epoch {epoch} loss {epoch_loss.item() / (N // BATCH):.4f} pair acc {correct / N:.3f}")

model.eval()
with torch.no_grad():
    margin = (model(chosen) - model(rejected)).mean()
print(f"mean reward margin {margin.item():.3f}")
