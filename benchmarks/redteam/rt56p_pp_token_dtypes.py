# corpus: runnable
# Red team 56 probe (NOT blind): tokens read to the host and rebuilt as tensors every step, where the source's
# dtype is not what torch.tensor makes from a Python number: an int32 token from searchsorted(out_int32=True)
# fed to one_hot and gather (which need int64), a float16 score, a bool stop flag, a uint8 counter that wraps.
import torch
import torch.nn.functional as F

torch.manual_seed(5626)
torch.set_num_threads(1)
device = 'cuda' if torch.cuda.is_available() else 'cpu'
g = torch.Generator().manual_seed(5626)
V = 5
trans = torch.softmax(torch.randn(V, V), -1).to(device)
cdf_all = trans.cumsum(-1)
tok = torch.tensor([0], device=device)
hist = []
scores = []
flags = []
wraps = []
counter = torch.tensor([250], dtype=torch.uint8, device=device)
for step in range(10):
    u = torch.rand(1, generator=g).to(device)
    idx32 = torch.searchsorted(cdf_all[tok[0]].contiguous(), u, out_int32=True).clamp(max=V - 1)
    tok = torch.tensor([idx32.item()], device=device)
    onehot = F.one_hot(tok, V)
    prob = trans[0].gather(0, tok)
    half = (prob * 3).half()
    score = torch.tensor(half.item(), device=device)
    stop = prob > 0.3
    flag = torch.tensor(stop.item(), device=device)
    counter += 1
    wrapped = torch.tensor(counter.item(), device=device)
    hist.append(int(onehot.argmax()))
    scores.append(score * 1000)
    flags.append(flag)
    wraps.append(wrapped * 100)
s = torch.stack(scores)
print(hist, s.dtype, torch.stack(flags).dtype, torch.stack(wraps).tolist())
print('checksum', round(sum(hist) + s.sum().item() + int(torch.stack(flags).sum()) + int(torch.stack(wraps).sum()), 4))
