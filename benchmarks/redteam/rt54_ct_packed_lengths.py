# corpus: runnable
# Red team 54 (blind): a GRU tagger over padded sequences of different lengths. pack_padded_sequence wants
# its lengths as a CPU int64 tensor (or a list); the same lengths are also needed on the device for a mask.
# Batches are shuffled with randperm on a CPU generator, noise tokens drawn with randint on that generator,
# and the mask built with arange. Per-length accuracy is gathered in a Python dict keyed by int(length).
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.nn.utils.rnn import pack_padded_sequence, pad_packed_sequence

torch.manual_seed(5401)
torch.set_num_threads(1)
device = 'cuda' if torch.cuda.is_available() else 'cpu'

g = torch.Generator().manual_seed(541)
V, T, N = 12, 9, 48
seq_lens = torch.randint(3, T + 1, (N,), generator=g)
tokens = torch.zeros(N, T, dtype=torch.long)
for i in range(N):
    n = int(seq_lens[i])
    tokens[i, :n] = torch.randint(1, V, (n,), generator=g)
labels = ((tokens + torch.roll(tokens, 1, dims=1) * 2) % 3) * (tokens > 0)


class Tagger(nn.Module):
    def __init__(self):
        super().__init__()
        self.emb = nn.Embedding(V, 8, padding_idx=0)
        self.rnn = nn.GRU(8, 16, batch_first=True)
        self.out = nn.Linear(16, 3)

    def forward(self, x, lengths):
        packed = pack_padded_sequence(self.emb(x), lengths, batch_first=True, enforce_sorted=False)
        h, _ = self.rnn(packed)
        h, _ = pad_packed_sequence(h, batch_first=True, total_length=x.shape[1])
        return self.out(h)


model = Tagger().to(device)
opt = torch.optim.Adam(model.parameters(), lr=0.02)
for epoch in range(6):
    order = torch.randperm(N, generator=g)
    total = 0.0
    for b in range(0, N, 12):
        idx = order[b:b + 12]
        x = tokens[idx]
        noise = torch.randint(0, 2, x.shape, generator=g).to(device)
        lens_cpu = seq_lens[idx]
        lens_dev = torch.tensor(lens_cpu.tolist()).to(device)
        mask = torch.arange(T).to(device)[None, :] < lens_dev[:, None]
        xin = torch.where(noise.bool() & mask, torch.zeros_like(x.to(device)), x.to(device))
        logits = model(xin, lens_cpu)
        loss = F.cross_entropy(logits[mask], labels[idx].to(device)[mask])
        opt.zero_grad()
        loss.backward()
        opt.step()
        total += loss.item()
    print('epoch', epoch, f'{total:.8f}')

model.eval()
per_len = {}
with torch.no_grad():
    for b in range(0, N, 16):
        x = tokens[b:b + 16].to(device)
        lens = seq_lens[b:b + 16]
        pred = model(x, lens).argmax(-1)
        for i in range(len(lens)):
            n = int(lens[i])
            hit = (pred[i, :n] == labels[b + i, :n].to(device)).sum().item()
            per_len.setdefault(n, []).append(hit / n)
lengths_seen = torch.tensor(sorted(per_len)).to(device)
acc = torch.tensor([sum(per_len[k]) / len(per_len[k]) for k in sorted(per_len)])
pad_room = torch.zeros(int(lengths_seen.max()) - int(lengths_seen.min()) + 1)
for k in per_len:
    pad_room[k - int(lengths_seen.min())] = len(per_len[k])
print('per length', {k: round(sum(v) / len(v), 6) for k, v in sorted(per_len.items())})
print('checksum', f'{acc.sum().item():.8f}', pad_room.tolist(), lengths_seen.tolist())
