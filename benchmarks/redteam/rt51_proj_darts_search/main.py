# corpus: runnable
# Red team 51 (blind): a DARTS-style first-order architecture search. The weights are stepped on the
# training batches; the architecture logits are stepped on the VALIDATION loss, which a helper in
# search.py computes in an evaluation loop (model.eval(), no backward in sight) and returns as a tensor.
# Early stopping on the validation accuracy keeps the best state by deepcopy.
import copy

import torch
import torch.nn.functional as F

from ops import SearchNet
from search import genotype, validation_accuracy, validation_loss

torch.manual_seed(5101)
torch.set_num_threads(1)
device = 'cuda' if torch.cuda.is_available() else 'cpu'

g = torch.Generator().manual_seed(51)
X = torch.randn(96, 4, generator=g)
Y = (X[:, 0] * 2 + X[:, 1] - X[:, 2] > 0).long() + (X[:, 3] > 0.8).long()
train = [(X[i:i + 16], Y[i:i + 16]) for i in range(0, 64, 16)]
val = [(X[i:i + 16], Y[i:i + 16]) for i in range(64, 96, 16)]

model = SearchNet().to(device)
w_opt = torch.optim.SGD(model.weights(), lr=0.1, momentum=0.9)
a_opt = torch.optim.Adam([model.alpha], lr=0.05)

best_acc, best_state, patience, bad = -1.0, None, 3, 0
for epoch in range(8):
    running = 0.0
    for x, y in train:
        loss = F.cross_entropy(model(x.to(device)), y.to(device))
        w_opt.zero_grad()
        loss.backward()
        w_opt.step()
        running += loss.item()
        # architecture step on the validation objective
        v = validation_loss(model, val, device)
        a_opt.zero_grad()
        w_opt.zero_grad()
        v.backward()
        a_opt.step()
    acc = validation_accuracy(model, val, device)
    name, probs = genotype(model)
    print(f'epoch {epoch} train {running / len(train):.10f} val_acc {acc:.6f} op {name} {probs}')
    if acc > best_acc:
        best_acc, best_state, bad = acc, copy.deepcopy(model.state_dict()), 0
    else:
        bad += 1
        if bad >= patience:
            print('early stop at', epoch)
            break

model.load_state_dict(best_state)
print('best', best_acc, 'alpha', [round(a, 8) for a in model.alpha.tolist()])
print('final val loss', f'{validation_loss(model, val, device).item():.10f}')
