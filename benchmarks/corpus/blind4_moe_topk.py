# corpus: runnable
"""A mixture-of-experts MLP layer with top-2 routing: tokens dispatched to experts with
index_add, a Switch-style load-balancing loss, per-expert usage counted with bincount and
printed now and then, the auxiliary loss summed over the epoch for the log."""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
D, E, K, N_CLASSES = 16, 4, 2, 4


class MoE(nn.Module):
    def __init__(self, d, n_experts, k):
        super().__init__()
        self.k, self.n_experts = k, n_experts
        self.gate = nn.Linear(d, n_experts, bias=False)
        self.experts = nn.ModuleList([nn.Sequential(nn.Linear(d, 2 * d), nn.GELU(), nn.Linear(2 * d, d)) for _ in range(n_experts)])

    def forward(self, x):
        logits = self.gate(x)
        probs = logits.softmax(-1)
        topk_p, topk_i = probs.topk(self.k, dim=-1)
        topk_p = topk_p / topk_p.sum(-1, keepdim=True)
        out = torch.zeros_like(x)
        for e, expert in enumerate(self.experts):
            token_idx, slot = (topk_i == e).nonzero(as_tuple=True)  # paef: ok host-sync
            if token_idx.numel() == 0:
                continue
            y = expert(x[token_idx]) * topk_p[token_idx, slot].unsqueeze(-1)
            out.index_add_(0, token_idx, y)
        counts = torch.bincount(topk_i.flatten(), minlength=self.n_experts).float()
        frac_tokens = counts / counts.sum()
        aux = self.n_experts * (frac_tokens * probs.mean(0)).sum()
        return out, aux, counts


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.inp = nn.Linear(8, D)
        self.moe = MoE(D, E, K)
        self.head = nn.Linear(D, N_CLASSES)

    def forward(self, x):
        h = F.relu(self.inp(x))
        m, aux, counts = self.moe(h)
        return self.head(h + m), aux, counts


X = torch.randn(1024, 8)
Y = (X[:, :2].sum(1) > 0).long() + 2 * (X[:, 2] > 0).long()
X, Y = X.to(device), Y.to(device)
model = Net().to(device)
opt = torch.optim.Adam(model.parameters(), lr=3e-3)
for epoch in range(4):
    perm = torch.randperm(len(X), device=device)
    aux_total = 0.0
    usage = torch.zeros(E, device=device)
    for step in range(0, len(X), 128):
        idx = perm[step:step + 128]
        logits, aux, counts = model(X[idx])
        loss = F.cross_entropy(logits, Y[idx]) + 0.01 * aux
        opt.zero_grad()
        loss.backward()
        opt.step()
        aux_total += aux  # paef: expect-fix graph-retention
        usage += counts
        if step % 512 == 0:
            print(f"epoch {epoch} step {step} loss {loss.item():.4f} usage {counts.tolist()}")
    print(f"epoch {epoch} mean aux {aux_total.item() / (len(X) // 128):.4f} usage {(usage / usage.sum()).tolist()}")
