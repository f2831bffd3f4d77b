# corpus: runnable
# Red team 58 probe (not blind): online distillation where the partner's targets come from a GENERATOR that puts
# the partner in eval mode and yields its outputs batch by batch; the consumer back-propagates through them (the
# partner is trained by the same optimizer). A running loss total is kept on the host.
import torch
import torch.nn as nn
import torch.nn.functional as F
torch.manual_seed(5823)
torch.set_num_threads(1)
device = 'cuda' if torch.cuda.is_available() else 'cpu'
a = nn.Sequential(nn.Linear(4, 8), nn.Dropout(0.2), nn.Linear(8, 3)).to(device)
b = nn.Sequential(nn.Linear(4, 8), nn.Dropout(0.2), nn.Linear(8, 3)).to(device)
opt = torch.optim.SGD(list(a.parameters()) + list(b.parameters()), lr=0.1)
x = torch.randn(64, 4, device=device)
y = torch.randint(0, 3, (64,), device=device)


def peer_targets(net):
    net.eval()
    for i in range(0, 64, 16):
        out = net(x[i:i + 16])
        yield i, out
    net.train()


for epoch in range(3):
    total = 0.0
    for i, pb in peer_targets(b):
        la = a(x[i:i + 16])
        loss = F.cross_entropy(la, y[i:i + 16]) + F.mse_loss(la.softmax(-1), pb.softmax(-1))
        opt.zero_grad()
        loss.backward()
        opt.step()
        total += loss.item()
    print("checksum", round(total, 6), round(sum(p.sum().item() for p in b.parameters()), 6))
