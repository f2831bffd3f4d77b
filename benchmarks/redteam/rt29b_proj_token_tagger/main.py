# corpus: runnable
# Red team 29b, wave 2 (blind): a tagger fine-tuned from the same pretrained vectors in each
# restart; the module's training_step (lit.py) returns 0.0 for a batch with no labels.
import torch

from lit import IGNORE, TaggerModule
from trainer import fit

torch.set_num_threads(1)
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
g = torch.Generator().manual_seed(23)
batches = []
for b in range(5):
    tokens = torch.randint(0, 6, (4, 7), generator=g)
    tags = (tokens % 3).masked_fill(torch.rand(4, 7, generator=g) < 0.2, IGNORE)
    if b == 2:
        tags.fill_(IGNORE)
    batches.append((tokens, tags))

for restart in range(2):
    torch.manual_seed(restart)
    vectors = torch.tensor([[0.5, -0.1, 0.0], [0.2, 0.3, -0.4], [-0.3, 0.1, 0.6],
                            [0.0, 0.0, 0.1], [0.4, 0.4, -0.2], [-0.5, 0.2, 0.2]])
    module = TaggerModule(vectors, 3)
    print("restart", restart, fit(module, batches, 3, device, 3))
