# corpus: runnable
# Red team 56 probe (NOT blind): functions that switch the model to eval mode and return nothing (or only an
# argmax), while they leave tensors WITH graphs on the model (a prefix key/value cache, the last logits) that the
# training loss then differentiates. Wrapping them in no_grad would leave the prefix untrained.
import torch
import torch.nn.functional as F

from model import V, PrefixLM
from prep import peek, warm

torch.manual_seed(5625)
torch.set_num_threads(1)
device = 'cuda' if torch.cuda.is_available() else 'cpu'
g = torch.Generator().manual_seed(5625)
model = PrefixLM().to(device)
opt = torch.optim.Adam(model.parameters(), lr=1e-2)
start = model.prefix.detach().clone()
hits = 0
for it in range(40):
    x = torch.randint(0, V, (16, 5), generator=g).to(device)
    y = (x + 1) % V
    warm(model, x.shape[0])
    pred = peek(model, x)
    hits += int((pred == y).sum())
    loss = F.cross_entropy(model.last.reshape(-1, V), y.reshape(-1))
    opt.zero_grad()
    loss.backward()
    opt.step()
moved = (model.prefix.detach() - start).norm().item()
print('prefix moved', round(moved, 5), 'hits', hits, 'loss', round(loss.item(), 4))
print('checksum', round(moved + hits + loss.item(), 4))
