# corpus: runnable
# Red team 57 (blind): tabular preprocessing with an own-written column table (frame.py), a standardiser
# fitted once whose statistics are Python floats read from float64 tensors, a category vocabulary built once
# and used per batch, a tracker of running sums in defaultdicts, the positive-class weight built from the
# first batch's counts (a 0-d tensor on the device, returned and read at the end), and a validation pass
# run in eval mode without no_grad.
import random

import torch

from frame import make_frame
from prep import Standardizer, Vocab
from train import TabNet, fit

torch.manual_seed(5706)
torch.set_num_threads(1)
device = 'cuda' if torch.cuda.is_available() else 'cpu'

frame = make_frame(300, 576)
frame.fillna('income', 20.0)
rows = list(range(len(frame)))
random.Random(5).shuffle(rows)
tr, va = frame.take(rows[:240]), frame.take(rows[240:])

std = Standardizer(['age', 'income', 'visits']).fit(tr)
vocab = Vocab().fit(tr['city'])
print('stats', {k: (round(a, 6), round(b, 6)) for k, (a, b) in std.stats.items()}, 'vocab', vocab.index)

batches = []
for i in range(0, 240, 40):
    part = tr.take(range(i, i + 40))
    batches.append((std.transform(part), vocab.encode(part['city']), torch.tensor(part['label'])))
val = (std.transform(va), vocab.encode(va['city']), torch.tensor(va['label']))
print('dtypes', batches[0][0].dtype, batches[0][1].dtype, val[2].dtype)

model = TabNet(3, len(vocab.index)).to(device)
history, pos_weight = fit(model, batches, val, device)
with torch.no_grad():
    p = torch.sigmoid(model(val[0].to(device).float(), val[1].to(device))).cpu()
print('pos_weight', round(pos_weight.item(), 6), 'val acc', ((p > 0.5).long() == val[2]).float().mean().item())
print('checksum', round(sum(history['loss']) + sum(history['val_loss']) + sum(history['acc']) + p.sum().item(), 6))
