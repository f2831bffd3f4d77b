# corpus: runnable
# Red team 59 probe (NOT blind): a dataset kept as a dict of Python lists, built before training and read per batch
# with torch.tensor(data["x"][i:j]) (the dict-as-list shape), but grown DURING training by hooks: a forward hook on
# the classifier appends confident pseudo-labelled rows (with a lower weight) when the model runs on an unlabelled
# pool in eval mode at the end of each epoch; the next epoch's loop reads the longer lists.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(5954)
torch.set_num_threads(1)
device = 'cuda' if torch.cuda.is_available() else 'cpu'

D, C = 6, 3
protos = torch.randn(C, D) * 1.6
ly = torch.randint(0, C, (60,))
lx = protos[ly] + torch.randn(60, D)
ux = (protos[torch.randint(0, C, (300,))] + torch.randn(300, D)).to(device)

data = {"x": lx.tolist(), "y": ly.tolist(), "w": [1.0] * 60}
net = nn.Sequential(nn.Linear(D, 24), nn.ReLU(), nn.Linear(24, C)).to(device)
opt = torch.optim.Adam(net.parameters(), lr=1e-2)
pool_pos = [0]




def harvest(module, inputs, output):
    if module.training or pool_pos[0] >= 300:
        return
    probs = F.softmax(output, 1)
    conf, lab = probs.max(1)
    for row, c, l in zip(inputs[0].tolist(), conf.tolist(), lab.tolist()):
        if c > 0.9:
            data["x"].append(row)
            data["y"].append(l)
            data["w"].append(0.5)


net.register_forward_hook(harvest)
sizes = []
losses = []
for epoch in range(6):
    net.train()
    n = len(data["y"])
    for i in range(0, n, 20):
        xb = torch.tensor(data["x"][i:i + 20], device=device)
        yb = torch.tensor(data["y"][i:i + 20], device=device)
        wb = torch.tensor(data["w"][i:i + 20], device=device)
        loss = (F.cross_entropy(net(xb), yb, reduction="none") * wb).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
        losses.append(loss.item())
    net.eval()
    with torch.no_grad():
        net(ux[pool_pos[0]:pool_pos[0] + 50])
    pool_pos[0] += 50
    sizes.append(len(data["y"]))

print("sizes", sizes)
print("loss", round(sum(losses[-10:]) / 10, 5))
print("checksum", round(sum(p.detach().double().sum().item() for p in net.parameters()), 5))
