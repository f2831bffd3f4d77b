# corpus: runnable
# Red team 56 (blind): a small attention seq2seq trained with teacher forcing decided per step by
# random.random() (ratio annealed), then with a two-pass scheduled sampling whose draft pass (model in eval mode)
# encodes the batch and leaves the encoder memory on the model for the training pass; greedy decoding with an
# EOS stop scores exact matches.
import random

import torch

from data import collate, make_pairs
from decode import exact_match
from model import Translator
from train import run_epoch

random.seed(5607)
torch.manual_seed(5607)
torch.set_num_threads(1)
device = 'cuda' if torch.cuda.is_available() else 'cpu'

gen = torch.Generator().manual_seed(567)
train_pairs = make_pairs(480, gen)
test_pairs = make_pairs(100, gen)
model = Translator().to(device)
opt = torch.optim.Adam(model.parameters(), lr=4e-3)
log = []
for epoch in range(8):
    two_pass = epoch >= 5
    ratio = max(0.5, 1.0 - 0.1 * epoch)
    batches = []
    for b in range(0, len(train_pairs), 48):
        src, tgt = collate(train_pairs[b:b + 48])
        batches.append((src.to(device), tgt.to(device)))
    loss = run_epoch(model, opt, batches, ratio, two_pass)
    acc = exact_match(model, test_pairs, device, collate)
    log.append((round(loss, 4), acc))
    print(epoch, round(loss, 4), acc, 'two-pass' if two_pass else '')
enc_norm = sum(p.norm().item() for p in model.enc.parameters())
print('encoder norm', round(enc_norm, 4))
print('checksum', round(sum(l + a for l, a in log) + enc_norm, 4))
