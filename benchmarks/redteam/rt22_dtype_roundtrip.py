# corpus: runnable
# Red team 22: dtype through host round trips: int32 / uint8 / float16 tensors through `.tolist()` / `.item()`
# back into `torch.tensor` (int64 / default float), `torch.Tensor(list)`, a float64 default dtype
import torch
from torch import nn

torch.set_num_threads(1)
torch.manual_seed(22)
device = "cuda" if torch.cuda.is_available() else "cpu"

model = nn.Linear(4, 3).to(device)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
counts32 = torch.zeros(3, dtype=torch.int32, device=device)
bytes8 = torch.full((3,), 250, dtype=torch.uint8, device=device)
halfs = torch.full((3,), 1000.0, dtype=torch.float16, device=device)
log = []
for step in range(4):
    x = torch.randn(8, 4, device=device)
    logits = model(x)
    pred = logits.argmax(1).to(torch.int32)
    ids = torch.tensor(pred.tolist(), device=device)
    big = ids * 2147483647
    b = torch.tensor(bytes8.tolist(), device=device) + 10
    h = torch.tensor(halfs.tolist(), device=device) * 100.0
    legacy = torch.Tensor(pred.cpu().tolist()).to(device)
    first = torch.tensor([pred[0].item()], device=device)
    loss = logits.pow(2).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
    log.append((int(big.sum()), int(b.sum()), float(h.sum()), str(ids.dtype), str(legacy.dtype), float(legacy.sum() / 3), str(first.dtype)))
print("dtypes", log)
torch.set_default_dtype(torch.float64)
w = torch.randn(4, dtype=torch.float32, device=device)
outs = []
for step in range(3):
    v = torch.tensor(w.tolist(), device=device)
    outs.append((str(v.dtype), float((v / 3).sum())))
    w = w * 1.1
print("default64", outs)
