# corpus: runnable
# Red team 52 (blind): a tiny causal LM trained on batches of changing length. The layers (layers.py)
# cache their causal mask and position table on the module and read per-head scales from a config
# dict that a curriculum edits between stages; evaluation runs the model in eval mode and keeps the
# per-position losses of the last batch.
import torch
import torch.nn.functional as F

from data import make_batches
from layers import TinyLM

torch.manual_seed(5207)
torch.set_num_threads(1)
device = 'cuda' if torch.cuda.is_available() else 'cpu'
gen = torch.Generator().manual_seed(5207)

cfg = {'head_scale': [1.0, 1.0], 'dropout': 0.1}
VOCAB = 9
model = TinyLM(VOCAB, 8, 2, cfg).to(device)
opt = torch.optim.Adam(model.parameters(), lr=0.02)
train = make_batches(VOCAB, [5, 8, 6, 8, 4, 7] * 3, 8, gen)
valid = make_batches(VOCAB, [6, 9], 8, gen)

stages = [[1.0, 1.0], [1.5, 0.5], [2.0, 0.25]]
log = []
for stage, scales in enumerate(stages):
    cfg['head_scale'] = scales
    for ids in train[stage * 6:(stage + 1) * 6]:
        ids = ids.to(device)
        logits = model(ids[:, :-1])
        loss = F.cross_entropy(logits.reshape(-1, VOCAB), ids[:, 1:].reshape(-1))
        opt.zero_grad()
        loss.backward()
        opt.step()
    log.append(round(loss.item(), 4))

model.eval()
val_losses = []
per_pos = None
for ids in valid:
    ids = ids.to(device)
    logits = model(ids[:, :-1])
    per_pos = F.cross_entropy(logits.transpose(1, 2), ids[:, 1:], reduction='none').mean(0)
    val_losses.append(per_pos.mean().item())
print('train', log)
print('valid', [round(v, 4) for v in val_losses], 'mask', tuple(model.attn.mask.shape))
print('per_pos', [round(v, 4) for v in per_pos.tolist()])
print('cached', sorted(k[0] for k in model.pos._cache))
print('checksum', round(sum(log) + sum(val_losses) + per_pos.sum().item(), 4))
