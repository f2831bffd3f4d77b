# corpus: runnable
# Round trips of pieces of a feature map cut along a later dimension (`chunk`, `split`,
# `tensor_split`, `unbind(1)`, `hsplit`, `select`), then viewed flat or their strides logged: the
# round trip is contiguous, the piece itself is not. Pieces cut along the first dimension are
# the near-misses.
import torch

torch.manual_seed(0)
torch.set_num_threads(1)
device = "cuda" if torch.cuda.is_available() else "cpu"
feats = torch.randn(2, 3, 4, device=device)
qkv = torch.randn(3, 12, device=device)
for step in range(2):
    q = torch.tensor(torch.chunk(qkv, 3, dim=1)[0].cpu().numpy()).to(device)
    k = torch.tensor(qkv.split(4, dim=1)[1].cpu().numpy()).to(device)
    v = torch.tensor(torch.tensor_split(qkv, 3, dim=1)[2].cpu().numpy()).to(device)
    ch = torch.tensor(feats.unbind(1)[0].cpu().numpy()).to(device)
    left = torch.tensor(torch.hsplit(qkv, 2)[0].cpu().numpy()).to(device)
    pick = torch.tensor(feats.select(2, 1).cpu().numpy()).to(device)
    print(q.stride(), k.stride(), v.stride(), ch.stride(), left.stride(), pick.stride())
    print(q.view(-1)[:2].tolist(), k.view(-1)[:2].tolist())
    head = torch.tensor(torch.chunk(qkv, 3, dim=0)[0].cpu().numpy()).to(device)
    rows = torch.tensor(qkv.split(1)[1].cpu().numpy()).to(device)
    print(head.stride(), rows.stride(), head.view(-1)[:2].tolist())
    feats = feats + 1
    qkv = qkv * 0.5
