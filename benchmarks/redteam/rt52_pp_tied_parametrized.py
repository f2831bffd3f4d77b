# corpus: runnable
# Red team 52 (blind): snapshots of weights that are shared or computed. A tiny language model ties
# its output projection to the embedding, a linear layer carries a weight_norm parametrization, and
# the model runs in float64 (picked from a config string). Snapshots go through Python lists
# (`torch.tensor(w.tolist())`) before training to measure drift afterwards.
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.nn.utils import parametrizations

torch.manual_seed(5204)
torch.set_num_threads(1)
device = 'cuda' if torch.cuda.is_available() else 'cpu'
config = {'precision': 'float64', 'vocab': 11, 'dim': 6}


class TiedLM(nn.Module):
    def __init__(self, vocab, dim):
        super().__init__()
        self.embed = nn.Embedding(vocab, dim)
        self.mix = parametrizations.weight_norm(nn.Linear(dim, dim))
        self.out = nn.Linear(dim, vocab, bias=False)
        self.out.weight = self.embed.weight

    def forward(self, ids):
        h = torch.tanh(self.mix(self.embed(ids)))
        return self.out(h)


model = TiedLM(config['vocab'], config['dim']).to(device, dtype=getattr(torch, config['precision']))
ids = torch.randint(0, config['vocab'], (20, 7), device=device)

emb0 = torch.tensor(model.embed.weight.tolist(), device=device)
mix0 = torch.tensor(model.mix.weight.detach().cpu().tolist(), device=device)
g0 = torch.tensor(model.mix.parametrizations.weight.original0.detach().cpu().numpy())
first_row = torch.tensor(model.out.weight[0].tolist())

opt = torch.optim.SGD(model.parameters(), lr=0.5)
losses = []
for step in range(25):
    logits = model(ids[:, :-1])
    loss = F.cross_entropy(logits.reshape(-1, config['vocab']), ids[:, 1:].reshape(-1))
    opt.zero_grad()
    loss.backward()
    opt.step()
    if step % 5 == 0:
        snap = torch.tensor(model.embed.weight[1].tolist(), device=device)
        losses.append((step, loss.item(), snap.dtype == model.embed.weight.dtype))

drift_emb = (model.embed.weight.detach() - emb0).norm().item()
drift_mix = (model.mix.weight.detach() - mix0).norm().item()
drift_g = (model.mix.parametrizations.weight.original0.detach().cpu() - g0).norm().item()
print('dtypes', emb0.dtype, mix0.dtype, g0.dtype, first_row.dtype)
print('losses', [(s, round(l, 5), same) for s, l, same in losses])
print('drift', round(drift_emb, 6), round(drift_mix, 6), round(drift_g, 6))
print('checksum', round(drift_emb + drift_mix + drift_g + first_row.sum().item() + sum(l for _, l, _ in losses), 6))
