# corpus: runnable
# A training loop that silences warnings after its first step: the loop reads the `warnings`
# module's state (`len(warnings.filters)`, a filter test) and changes it through library calls
# (`warnings.simplefilter`, `warnings.filterwarnings`, `warnings.resetwarnings`), directly and
# in a helper. Built before the loop, the tensors would hold the first step's state only.
import warnings

import torch
import torch.nn as nn

torch.manual_seed(0)
torch.set_num_threads(1)
warnings.resetwarnings()
base = len(warnings.filters)
model = nn.Linear(4, 1)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
data = [(torch.randn(8, 4), torch.randn(8, 1)) for _ in range(4)]

seen = []
for step, (x, y) in enumerate(data):
    n_filters = torch.tensor(len(warnings.filters) - base)
    loss = nn.functional.mse_loss(model(x), y)
    opt.zero_grad()
    loss.backward()
    opt.step()
    warnings.simplefilter("ignore", category=UserWarning)
    seen.append(int(n_filters))
print("filters seen", seen)


def quiet(step):
    warnings.filterwarnings("ignore", message=f"step {step}")


marks = []
for step in range(3):
    ignored = torch.tensor([f[0] == "ignore" for f in warnings.filters[:2]], dtype=torch.bool)
    quiet(step)
    marks.append(ignored.tolist())
print("ignore marks", marks)

warnings.resetwarnings()
counts = []
for step in range(3):
    c = torch.zeros(len(warnings.filters) + 1)
    if step == 1:
        warnings.resetwarnings()
    else:
        warnings.simplefilter("always")
    counts.append(c.numel())
print("sizes", counts)
warnings.resetwarnings()
