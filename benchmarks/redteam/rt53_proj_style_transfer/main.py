# corpus: runnable
# Red team 53 (blind): neural style transfer and deep dream. The IMAGE is the parameter: L-BFGS steps it
# with a closure; the extractor is frozen (eval, requires_grad False). The losses are computed by a
# Recorder (features.py) that stores them in a dict instead of returning them; the closure back-propagates
# the stored total. The targets are extracted once with the same frozen net. A deep-dream pass (dream.py)
# ascends the norm of a block's activation by writing img.data.
import torch

from dream import dream
from features import Recorder, frozen_extractor, gram

torch.manual_seed(5307)
torch.set_num_threads(1)
device = 'cuda' if torch.cuda.is_available() else 'cpu'

net = frozen_extractor(device)
content = torch.rand(1, 3, 16, 16, device=device)
style = torch.rand(1, 3, 16, 16, device=device) ** 2

net.eval()
content_target = net(content)[2].detach()
style_targets = [gram(f).detach() for f in net(style)]

img = content.clone().requires_grad_(True)
opt = torch.optim.LBFGS([img], lr=0.5, max_iter=8)
rec = Recorder()
evals = []


def closure():
    opt.zero_grad()
    rec.measure(net, img, content_target, style_targets, style_weight=50.0)
    rec.terms['total'].backward()
    evals.append(rec.terms['total'].item())
    return rec.terms['total']


for outer in range(4):
    opt.step(closure)
    with torch.no_grad():
        img.clamp_(0.0, 1.0)

rec.measure(net, img, content_target, style_targets, style_weight=50.0)
final_terms = {k: v.item() for k, v in rec.terms.items()}

dreamed, norms = dream(net, img.detach(), block=1, steps=6, lr=0.02)

print('evals', len(evals), [f'{v:.6e}' for v in evals[:3]], f'{evals[-1]:.6e}')
print('terms', {k: f'{v:.6e}' for k, v in final_terms.items()})
print('image', round(img.detach().double().sum().item(), 6))
print('dream', [round(v, 5) for v in norms], round(dreamed.double().sum().item(), 6))
print('net untouched', round(sum(p.double().sum().item() for p in net.parameters()), 6))
