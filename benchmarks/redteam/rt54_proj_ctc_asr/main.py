# corpus: runnable
# Red team 54 (blind): a CTC recogniser. The collate function keeps input / target lengths as CPU int64
# tensors (pack_padded_sequence and ctc_loss take them there), targets are concatenated and split back with
# sizes from a tensor, greedy decoding collapses repeats on Python lists, and the error rate is summed per
# utterance. A confusion dict keyed by (ref, hyp) tuples counts substitutions; utterances are bucketed by
# their frame count read as int.
import torch
import torch.nn.functional as F

from data import collate, make_corpus
from decode import edit_distance, greedy_ctc, split_targets
from model import Acoustic

torch.manual_seed(5407)
torch.set_num_threads(1)
device = 'cuda' if torch.cuda.is_available() else 'cpu'

gen = torch.Generator().manual_seed(547)
VOCAB, DIM = 6, 6
train = make_corpus(48, VOCAB, DIM, gen)
test = make_corpus(16, VOCAB, DIM, gen)
model = Acoustic(DIM, VOCAB).to(device)
opt = torch.optim.Adam(model.parameters(), lr=0.02)

for epoch in range(10):
    perm = torch.randperm(len(train), generator=gen).tolist()
    total, n_utt = 0.0, 0
    for b in range(0, len(train), 8):
        x, in_lens, targets, tgt_lens = collate([train[i] for i in perm[b:b + 8]])
        logp = model(x.to(device), in_lens)
        loss = F.ctc_loss(logp.transpose(0, 1), targets, in_lens, tgt_lens, blank=0, zero_infinity=True)
        opt.zero_grad()
        loss.backward()
        opt.step()
        total += loss.item() * len(tgt_lens)
        n_utt += len(tgt_lens)
    if epoch % 3 == 0:
        print('epoch', epoch, f'{total / n_utt:.8f}')

model.eval()
errs, ref_len = 0, 0
confusions = {}
by_frames = {}
x, in_lens, targets, tgt_lens = collate(test)
logp = model(x.to(device), in_lens)
test_loss = F.ctc_loss(logp.transpose(0, 1), targets, in_lens, tgt_lens, zero_infinity=True, reduction='none')
hyps = greedy_ctc(logp, in_lens)
refs = split_targets(targets, tgt_lens)
for i, (h, r) in enumerate(zip(hyps, refs)):
    e = edit_distance(h, r)
    errs += e
    ref_len += len(r)
    by_frames.setdefault(int(in_lens[i]) // 4, []).append(e)
    for a, b in zip(r, h):
        if a != b:
            confusions[(a, b)] = confusions.get((a, b), 0) + 1
worst = sorted(range(len(test)), key=lambda i: test_loss[i], reverse=True)[:4]
print('per-utt loss', [round(v, 5) for v in test_loss.tolist()])
print('checksum', errs, ref_len, f'{test_loss.sum().item():.6f}', sorted(confusions.items())[:5],
      {k: sum(v) for k, v in sorted(by_frames.items())}, worst)
