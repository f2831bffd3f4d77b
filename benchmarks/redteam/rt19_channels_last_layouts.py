# corpus: runnable
# channels_last training: inputs built on the CPU then moved with `memory_format=torch.channels_last`,
# a model converted with `.to(memory_format=...)`, a feature map read back through `.tolist()` into a
# new tensor and then `.view`ed, strides and `is_contiguous` printed, and a constant kernel rebuilt
# per step in channels_last.
import torch
from torch import nn

torch.set_num_threads(1)
torch.manual_seed(0)
device = "cuda" if torch.cuda.is_available() else "cpu"

net = nn.Sequential(nn.Conv2d(3, 4, 3, padding=1), nn.ReLU(), nn.Conv2d(4, 2, 3, padding=1))
net = net.to(device, memory_format=torch.channels_last)
opt = torch.optim.SGD(net.parameters(), lr=0.01)

for step in range(3):
    x = torch.randn(2, 3, 8, 8).to(device, memory_format=torch.channels_last)
    target = torch.zeros(2, 2, 8, 8).to(device, memory_format=torch.channels_last)
    out = net(x)
    loss = (out - target).pow(2).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
    print(step, x.stride(), target.is_contiguous(), out.is_contiguous(memory_format=torch.channels_last),
          round(loss.item(), 6))

feat = net[0](torch.randn(1, 3, 8, 8).to(device).contiguous(memory_format=torch.channels_last))
copy = torch.tensor(feat.detach().cpu().tolist())
print("copy", copy.stride(), copy.view(1, -1).shape)
flat = torch.tensor(feat.cpu().tolist()).to(device)
print("flat", flat.view(-1)[:3].tolist())

blur = None
for step in range(2):
    kernel = torch.ones(2, 1, 3, 3).to(device, memory_format=torch.channels_last) / 9.0
    y = nn.functional.conv2d(out.detach(), kernel, padding=1, groups=2)
    print("blur", kernel.stride(), y.stride(), round(y.sum().item(), 5))
