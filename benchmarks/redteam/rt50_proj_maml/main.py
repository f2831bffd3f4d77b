# corpus: runnable
# Red team 50 (blind): MAML on sine regression. The inner loop (inner.py) differentiates with
# `create_graph=True`; the meta loss is summed over a task batch and back-propagated once; the meta-test
# (evaluate.py) adapts without a backward of its own, through `autograd.grad`; per-task losses are logged as numbers.
import torch

from evaluate import meta_test
from inner import adapt, forward
from tasks import sample_tasks

torch.manual_seed(5010)
torch.set_num_threads(1)
device = 'cuda' if torch.cuda.is_available() else 'cpu'

gen = torch.Generator().manual_seed(10)
weights = [torch.randn(1, 20) * 0.5, torch.zeros(20), torch.randn(20, 1) * 0.3, torch.zeros(1)]
weights = [w.to(device).requires_grad_() for w in weights]
meta_opt = torch.optim.Adam(weights, lr=1e-2)
test_tasks = sample_tasks(4, 10, gen)

history = []
for it in range(6):
    meta_loss = 0
    for xs, ys, xq, yq in sample_tasks(4, 10, gen):
        fast = adapt(weights, xs.to(device), ys.to(device))
        qloss = ((forward(xq.to(device), fast) - yq.to(device)) ** 2).mean()
        meta_loss = meta_loss + qloss
        history.append(qloss.item())
    meta_opt.zero_grad()
    (meta_loss / 4).backward()
    meta_opt.step()
    print('meta', it, f'{meta_loss.item():.10f}', f'{sum(history[-4:]):.10f}')
scores = meta_test(weights, test_tasks, device)
print('meta-test', scores.dtype, [f'{v:.8f}' for v in scores.tolist()])
