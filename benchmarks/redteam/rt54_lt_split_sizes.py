# corpus: runnable
# Red team 54 (blind): multiple-instance learning over bags of different sizes. Bag sizes come from a
# tensor (.item() per bag), torch.split needs them as a Python list of ints, repeat_interleave takes them as a
# tensor, and segment offsets are a cumulative Python list. Pooled bag scores are gathered into lists that are
# turned into tensors after the loop; one list keeps growing after its tensor was taken.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(5403)
torch.set_num_threads(1)
device = 'cuda' if torch.cuda.is_available() else 'cpu'

g = torch.Generator().manual_seed(543)
B = 20
bag_sizes = torch.randint(2, 7, (B,), generator=g)
inst = torch.randn(int(bag_sizes.sum()), 6, generator=g)
key = torch.randn(6, generator=g)
bag_of = torch.repeat_interleave(torch.arange(B), bag_sizes)
pos = (inst @ key > 1.0).long()
bag_y = torch.zeros(B).index_add_(0, bag_of, pos.float()).clamp(max=1)

sizes = []
for b in range(B):
    sizes.append(int(bag_sizes[b].item()))
offsets = [0]
for s in sizes:
    offsets.append(offsets[-1] + s)

net = nn.Sequential(nn.Linear(6, 12), nn.ReLU(), nn.Linear(12, 1)).to(device)
opt = torch.optim.Adam(net.parameters(), lr=0.03)
for epoch in range(12):
    scores = net(inst.to(device)).squeeze(1)
    pieces = torch.split(scores, sizes)
    bag_logit = torch.stack([p.max() for p in pieces])
    loss = F.binary_cross_entropy_with_logits(bag_logit, bag_y.to(device))
    opt.zero_grad()
    loss.backward()
    opt.step()
    if epoch % 4 == 0:
        print('epoch', epoch, f'{loss.item():.8f}')

with torch.no_grad():
    scores = net(inst.to(device)).squeeze(1)
    reps = torch.tensor(sizes).to(device)
    bag_mean = torch.zeros(B, device=device).index_add_(0, torch.repeat_interleave(torch.arange(B, device=device), reps), scores) / reps
    top_idx = []
    top_val = []
    for b in range(B):
        seg = scores[offsets[b]:offsets[b + 1]]
        j = int(seg.argmax())
        top_idx.append(offsets[b] + j)
        top_val.append(seg[j].item())
    top_t = torch.tensor(top_val)
    idx_t = torch.tensor(top_idx)
    picked = inst[idx_t]
    top_val.append(float(bag_mean.mean()))
    small = [s for s in sizes if s < 4]
    small_t = torch.tensor(small, dtype=torch.float32)
    sorted_bags = sorted(range(B), key=lambda b: bag_mean[b])
    chunks = torch.tensor(sizes).split([5, 5, 10])
print('bag_mean', [round(v, 5) for v in bag_mean.tolist()])
print('checksum', f'{top_t.sum().item():.8f}', f'{picked.sum().item():.6f}', len(top_val), small_t.tolist(),
      sorted_bags[:6], [c.sum().item() for c in chunks])
