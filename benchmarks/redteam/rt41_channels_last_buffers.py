# corpus: runnable
"""Small conv net trained channels_last; buffers and masks built per step and moved to the device."""
import torch
import torch.nn as nn

torch.manual_seed(0)
device = 'cuda' if torch.cuda.is_available() else 'cpu'

net = nn.Sequential(nn.Conv2d(3, 8, 3, padding=1), nn.ReLU(), nn.Conv2d(8, 4, 3, padding=1)).to(device)
net = net.to(memory_format=torch.channels_last)
opt = torch.optim.SGD(net.parameters(), lr=0.05)
x_all = torch.randn(12, 3, 6, 6)
y_all = torch.randn(12, 4, 6, 6)

for step in range(3):
    x = x_all[step * 4:(step + 1) * 4].to(device).contiguous(memory_format=torch.channels_last)
    y = y_all[step * 4:(step + 1) * 4].to(device)
    bias_map = torch.zeros(1, 4, 1, 1).expand(4, 4, 6, 6).to(device, copy=True)
    bias_map.add_(0.01 * step)
    canvas = torch.zeros(4, 4, 6, 6).to(memory_format=torch.channels_last).to(device)
    border = torch.ones(6, 6).t().to(device)
    border[0, :] = 0.5
    eye = torch.eye(4).to_sparse().to(device)
    mix = torch.sparse.mm(eye, torch.ones(4, 2).to(device))
    phase = torch.zeros(6, dtype=torch.complex64).to(device)
    ramp = torch.linspace(-1.0, 1.0, 6).to(device)
    out = net(x) + bias_map + canvas
    out = out * border + ramp
    loss = ((out - y) ** 2).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
    print(step, "loss %.10f" % loss.item(), "bias strides", bias_map.stride(), "canvas cl",
          canvas.is_contiguous(memory_format=torch.channels_last), canvas.stride(),
          "border", border.stride(), "%.4f" % border.sum().item(),
          "eye", eye.layout, "mix %.3f" % mix.sum().item(), phase.dtype, "ramp %.10f" % ramp[1].item(),
          "out cl", out.is_contiguous(memory_format=torch.channels_last))
