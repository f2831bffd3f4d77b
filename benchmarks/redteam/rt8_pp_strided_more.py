# corpus: runnable
# Second wave: strided pieces the first fix may not name: `torch.split` with a list of sizes
# along `dim=1`, `torch.unbind(t, 1)`, `split_with_sizes`, `chunk` along `-1` positionally, a
# piece returned by a helper, `tensor_split` with indices along columns.
import torch

torch.manual_seed(0)
torch.set_num_threads(1)
device = "cuda" if torch.cuda.is_available() else "cpu"
qkv = torch.randn(3, 12, device=device)
feats = torch.randn(2, 3, 4, device=device)


def heads(t):
    return t.chunk(3, -1)


for step in range(2):
    a = torch.tensor(torch.split(qkv, [4, 8], dim=1)[0].cpu().numpy()).to(device)
    b = torch.tensor(torch.unbind(feats, 1)[1].cpu().numpy()).to(device)
    c = torch.tensor(qkv.split_with_sizes([6, 6], 1)[1].cpu().numpy()).to(device)
    d = torch.tensor(qkv.chunk(2, -1)[0].cpu().numpy()).to(device)
    e = torch.tensor(heads(qkv)[1].cpu().numpy()).to(device)
    f = torch.tensor(torch.tensor_split(qkv, [5], 1)[1].cpu().numpy()).to(device)
    print(a.stride(), b.stride(), c.stride(), d.stride(), e.stride(), f.stride())
    qkv = qkv + 1
