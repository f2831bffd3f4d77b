# corpus: runnable
# Red team 55 (blind): a two-tower recommender. Histories are bagged with nn.EmbeddingBag whose offsets are
# built per batch in the collate function, negatives are drawn per batch from a torch generator, evaluation
# computes hit-rate / NDCG with topk and Python sets, cold-start users are folded in at test time by a few
# gradient steps on the item table, and a temperature is calibrated on validation scores kept with their graph.
import torch
import torch.nn.functional as F

from data import N_ITEMS, batches, collate, make_users
from evaluate import collect_scores, fold_in, rank_metrics
from model import TwoTower

torch.manual_seed(5506)
torch.set_num_threads(1)
device = 'cuda' if torch.cuda.is_available() else 'cpu'

users = make_users(160, 556)
train, val, cold = users[:110], users[110:140], users[140:]
model = TwoTower(N_ITEMS, 12).to(device)
opt = torch.optim.Adam(model.parameters(), lr=0.03)
gen = torch.Generator().manual_seed(5560)
history = []
for epoch in range(8):
    total = torch.zeros((), device=device)
    nb = 0
    for batch in batches(train, 16, epoch):
        flat, offsets, pos, neg = collate(batch, 5, gen)
        u = model.user(flat.to(device), offsets.to(device))
        cand = torch.cat([pos.unsqueeze(1), neg], 1).to(device)
        logits = model.score(u, cand)
        labels = torch.zeros(len(batch), dtype=torch.long, device=device)
        loss = F.cross_entropy(logits, labels)
        opt.zero_grad()
        loss.backward()
        opt.step()
        total += loss.detach()
        nb += 1
    history.append((total / nb).item())

hr, ndcg, tops = rank_metrics(model, val, collate, 5, device, torch.Generator().manual_seed(1))
before = model.items.weight.detach().clone()
fold_losses = fold_in(model, cold, device, steps=3, lr=0.5)
moved = (model.items.weight.detach() - before).abs().sum().item()
hr_cold, ndcg_cold, _ = rank_metrics(model, cold, collate, 5, device, torch.Generator().manual_seed(2))

model.zero_grad()
temp = torch.nn.Parameter(torch.ones((), device=device))
t_opt = torch.optim.SGD([temp], lr=0.1)
kept = collect_scores(model, val, collate, device, torch.Generator().manual_seed(3))
for it in range(10):
    logits = torch.cat(kept) / temp
    nll = F.cross_entropy(logits, torch.zeros(logits.shape[0], dtype=torch.long, device=device))
    t_opt.zero_grad()
    nll.backward(retain_graph=True)
    t_opt.step()
grad_seen = 0.0 if model.proj.weight.grad is None else round(model.proj.weight.grad.abs().sum().item(), 5)

print('history', [round(v, 5) for v in history])
print('val hr', round(hr, 5), 'ndcg', round(ndcg, 5), 'tops', tops[:10])
print('fold', [round(v, 4) for v in fold_losses[:6]], 'moved', round(moved, 5), 'cold hr', round(hr_cold, 5))
print('temp', round(temp.item(), 6), 'grad on tower after calibration', grad_seen)
print('checksum', round(sum(history) + hr + ndcg + moved + sum(fold_losses) + temp.item(), 6))
