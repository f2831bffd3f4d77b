# corpus: runnable
# Red team 53 probe (not blind): an evaluation-looking loop (eval(), no backward inside) whose forward
# passes leave activations in a dict through a forward hook; after the loop the last captured activation is
# back-propagated to get a Grad-CAM-like map, and the loop's outputs are kept and differentiated later.
import torch
import torch.nn as nn

torch.manual_seed(5326)
torch.set_num_threads(1)
device = 'cuda' if torch.cuda.is_available() else 'cpu'

net = nn.Sequential(nn.Linear(5, 10), nn.ReLU(), nn.Linear(10, 3)).to(device)
acts = {}
net[1].register_forward_hook(lambda mod, inp, out: acts.__setitem__('h', out))
X = torch.rand(24, 5, device=device)

net.eval()
preds = []
for b in range(0, 24, 8):
    logits = net(X[b:b + 8])
    preds.append(logits.argmax(1).tolist())
h = acts['h']
if h.requires_grad:
    (h ** 2).sum().backward()
    cam = round(net[0].bias.grad.sum().item(), 6)
else:
    cam = 'no graph'
acc_grad = round(net[0].weight.grad.abs().sum().item(), 6) if net[0].weight.grad is not None else None
print(preds, cam, acc_grad)
