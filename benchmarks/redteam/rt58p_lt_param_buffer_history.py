# corpus: runnable
# Red team 58 probe (not blind): a distiller module with a learned temperature (a 0-d Parameter the optimizer
# steps in place) and an EMA of its loss in a 0-d buffer updated in place by its forward; their values are
# recorded per step with .item() into lists turned into tensors, beside the plain loss history.
import torch
import torch.nn as nn
import torch.nn.functional as F
torch.manual_seed(5826)
torch.set_num_threads(1)
device = 'cuda' if torch.cuda.is_available() else 'cpu'


class Distiller(nn.Module):
    def __init__(self):
        super().__init__()
        self.student = nn.Linear(4, 3)
        self.log_t = nn.Parameter(torch.tensor(0.5))
        self.register_buffer('ema_loss', torch.tensor(1.0))

    def forward(self, x, t_logits):
        T = self.log_t.exp()
        kd = F.kl_div(F.log_softmax(self.student(x) / T, -1), F.softmax(t_logits / T, -1), reduction='batchmean')
        with torch.no_grad():
            self.ema_loss.mul_(0.9).add_(kd.detach(), alpha=0.1)
        return kd


teacher = nn.Linear(4, 3).to(device)
d = Distiller().to(device)
opt = torch.optim.SGD(d.parameters(), lr=0.5)
x = torch.randn(64, 4, device=device)
temps, emas, losses = [], [], []
for step in range(20):
    with torch.no_grad():
        t_logits = teacher(x)
    loss = d(x, t_logits)
    opt.zero_grad()
    loss.backward()
    opt.step()
    temps.append(d.log_t.item())
    emas.append(d.ema_loss.item())
    losses.append(loss.item())
tt = torch.tensor(temps)
ee = torch.tensor(emas)
ll = torch.tensor(losses)
print("checksum", tt.sum().item(), ee.sum().item(), ll.sum().item(), tt[:3].tolist())
