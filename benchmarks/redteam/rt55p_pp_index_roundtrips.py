# corpus: runnable
# Red team 55 probe (not blind): index tensors sent through Python lists and back: int32 CSR offsets, a uint8
# map, a bool mask, float16 scores, an order-preserving dedupe (dict.fromkeys), a set, a reversed list, a
# sorted list, and a snapshot of a row that the loop then overwrites in place.
import torch

torch.manual_seed(5523)
torch.set_num_threads(1)
device = 'cuda' if torch.cuda.is_available() else 'cpu'

n = 12
src = torch.randint(0, n, (40,), device=device)
dst = torch.randint(0, n, (40,), device=device)
adj = torch.sparse_coo_tensor(torch.stack([src, dst]), torch.ones(40, device=device), (n, n)).coalesce()
csr = adj.to_sparse_csr()
crow32 = csr.crow_indices().to(torch.int32)
crow_back = torch.tensor(crow32.tolist(), device=device)
flags = (dst % 3 == 0).to(torch.uint8)
flags_back = torch.tensor(flags.tolist(), device=device)
mask_back = torch.tensor((src > dst).tolist(), device=device)
half = torch.randn(n, device=device).half()
half_back = torch.tensor(half.tolist(), device=device)
firsts = torch.tensor(list(dict.fromkeys(src.tolist())), device=device)
uniq = torch.tensor(list(set(dst.tolist())), device=device)
rev = torch.tensor(src.tolist()[::-1], device=device)
srt = torch.tensor(sorted(dst.tolist()), device=device)

table = torch.zeros(4, n, device=device)
snaps = []
for step in range(4):
    table[step % 2] += torch.bincount(dst[step * 10:(step + 1) * 10], minlength=n).float()
    snaps.append(torch.tensor(table[step % 2].tolist(), device=device))
    table[step % 2].mul_(0.5)

print('crow', crow_back.dtype, crow_back.sum().item(), 'flags', flags_back.dtype, flags_back.sum().item())
print('mask', mask_back.dtype, mask_back.sum().item(), 'half', half_back.dtype, round(half_back.sum().item(), 4))
print('firsts', firsts.tolist(), 'uniq', uniq.tolist())
print('rev', rev[:6].tolist(), 'srt', srt[:6].tolist())
print('snaps', [round(s.sum().item(), 4) for s in snaps])
print('checksum', round(crow_back.sum().item() + flags_back.sum().item() + half_back.sum().item() + (firsts * torch.arange(firsts.numel(), device=device)).sum().item()
                        + (uniq * torch.arange(uniq.numel(), device=device)).sum().item() + sum(s.sum().item() for s in snaps), 4))
