# corpus: runnable
# Red team 54 probe (not blind): host-built tensors moved to the device in a loop. Random ones (the global CPU
# stream, a torch.Generator, multinomial / bernoulli / normal / uniform_ / rand_like) would draw other numbers if
# built on the device; lengths moved to the device are brought back for pack_padded_sequence; counts read
# with int() size a zeros().to(device).
import torch
import torch.nn as nn
from torch.nn.utils.rnn import pack_padded_sequence

torch.manual_seed(5424)
torch.set_num_threads(1)
device = 'cuda' if torch.cuda.is_available() else 'cpu'

g = torch.Generator().manual_seed(5424)
rnn = nn.GRU(3, 4, batch_first=True).to(device)
draws = []
for step in range(4):
    p = torch.randperm(6).to(device)
    q = torch.randint(0, 5, (3,)).to(device)
    r = torch.multinomial(torch.tensor([0.2, 0.3, 0.5]), 4, replacement=True).to(device)
    s = torch.bernoulli(torch.full((4,), 0.5)).to(device)
    t = torch.normal(0.0, 1.0, (3,)).to(device)
    u = torch.empty(3).uniform_(-1, 1).to(device)
    w = torch.rand_like(torch.zeros(3)).to(device)
    z = torch.randn(2, 3, generator=g).to(device)
    lens = torch.tensor([3, 2, 1]).to(device)
    x = torch.randn(3, 3, 3, generator=g).to(device)
    h, _ = rnn(pack_padded_sequence(x, lens.cpu(), batch_first=True))
    n = int((q > 2).sum())
    pad = torch.zeros(n + 1).to(device)
    ar = torch.arange(n + 2).to(device)
    draws.append(p.sum().item() + q.sum().item() + r.sum().item() + s.sum().item() + t.sum().item() + u.sum().item()
                 + w.sum().item() + z.sum().item() + h.data.sum().item() + pad.numel() + ar.sum().item())
print([round(d, 5) for d in draws])
print('checksum', f'{sum(draws):.6f}')
