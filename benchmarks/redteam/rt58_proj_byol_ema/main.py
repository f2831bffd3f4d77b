# corpus: runnable
# Red team 58 (blind): BYOL-style self-supervised learning on made-up feature vectors. An online network
# (encoder + predictor) regresses onto a target encoder that is an EMA copy of the online encoder (ema.EMA,
# parameters blended in place every step, BatchNorm buffers copied). A second loss compares the two online
# views to each other with the stop-gradient on one side only. A monitor evaluates the EMA encoder in eval mode
# with a linear probe fitted in closed form on its features. The augmentation noise scale is a tensor decayed
# in place each epoch.
import torch

from ema import EMA
from losses import asymmetric, regression
from nets import D, Online

torch.manual_seed(5807)
torch.set_num_threads(1)
device = 'cuda' if torch.cuda.is_available() else 'cpu'

N, C = 320, 4
proto = torch.randn(C, D)
labels = torch.randint(0, C, (N,))
data = (proto[labels] + 0.5 * torch.randn(N, D)).to(device)
labels = labels.to(device)

online = Online().to(device)
target = EMA(online.encoder, 0.9)
opt = torch.optim.SGD(online.parameters(), lr=0.05, momentum=0.9)
noise = torch.tensor(0.6, device=device)


def augment(x, scale):
    return x * (1 + 0.2 * torch.randn_like(x)) + scale * torch.randn_like(x)


def probe_accuracy(enc):
    enc.eval()
    feats = enc(data)
    onehot = torch.nn.functional.one_hot(labels, C).float()
    w = torch.linalg.lstsq(torch.cat([feats, torch.ones(N, 1, device=device)], 1), onehot).solution
    pred = (torch.cat([feats, torch.ones(N, 1, device=device)], 1) @ w).argmax(1)
    enc.train()
    return (pred == labels).float().mean().item()


log = []
for epoch in range(5):
    perm = torch.randperm(N, device=device)
    for i in range(0, N, 40):
        xb = data[perm[i:i + 40]]
        v1, v2 = augment(xb, noise), augment(xb, noise)
        p1, p2 = online(v1), online(v2)
        z1, z2 = online.project(v1), online.project(v2)
        with torch.no_grad():
            t1, t2 = target(v1), target(v2)
        loss = regression(p1, t2) + regression(p2, t1) + 0.5 * asymmetric(p1, z2, p2, z1)
        opt.zero_grad()
        loss.backward()
        opt.step()
        target.update(online.encoder)
    noise.mul_(0.7)
    log.append((round(loss.item(), 5), round(probe_accuracy(target.module), 4)))

print('log', log)
print('noise', round(noise.item(), 6))
print('checksum', round(sum(p.double().sum().item() for p in target.module.parameters()), 6),
      round(sum(b.double().sum().item() for b in target.module.buffers()), 4))
