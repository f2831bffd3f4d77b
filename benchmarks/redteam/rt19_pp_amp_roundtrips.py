# corpus: runnable
# Device -> host -> device round trips of values computed under bfloat16 autocast: a bfloat16 loss
# read with `.item()` into a new tensor on the device, bfloat16 predictions turned into a list and
# back, a confidence threshold read as a Python float then compared, and a float16 mean.
import torch
from torch import nn

torch.set_num_threads(1)
torch.manual_seed(0)
device = "cuda" if torch.cuda.is_available() else "cpu"

model = nn.Sequential(nn.Linear(6, 6), nn.ReLU(), nn.Linear(6, 3)).to(device)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
data = [(torch.randn(5, 6), torch.randint(0, 3, (5,))) for _ in range(4)]

for step, (x, y) in enumerate(data):
    x, y = x.to(device), y.to(device)
    with torch.autocast(device_type="cpu", dtype=torch.bfloat16):
        logits = model(x)
        margin = (logits.max(-1).values - logits.mean(-1)).mean()
        m = torch.tensor(margin.item(), device=device)
        p = torch.tensor(logits.softmax(-1).cpu().tolist()).to(device)
        ref = torch.tensor(logits.detach().cpu().tolist(), device=device)
    loss = nn.functional.cross_entropy(logits.float(), y) + 0.0 * m
    opt.zero_grad()
    loss.backward()
    opt.step()
    print(step, m.dtype, p.dtype, ref.dtype, m.item(), (p.sum(-1) - 1).abs().max().item(), ref[0].tolist())

half = torch.randn(7).half()
for _ in range(2):
    mean = torch.tensor(half.to(device).mean().item())
    back = torch.tensor(half.cpu().tolist()).to(device) * 1.001
    print("half", mean.dtype, mean.item(), back.dtype, back[:3].tolist())
