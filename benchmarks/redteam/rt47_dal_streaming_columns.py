# corpus: runnable
# Red team 47 (blind): an online-collection loop over a COLUMN DICT that grows while it is read: the
# batch-index generator appends freshly "collected" rows to the columns before yielding their indices (as
# an environment rollout or a streaming reader would), and batches are gathered from the columns by
# index. A replay buffer keeps `.tolist()` rows and is sampled the same way. A batch object exposes a
# noisy view of its scores through a property that draws new noise on every access.
import random

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(13)
torch.set_num_threads(1)
device = 'cuda' if torch.cuda.is_available() else 'cpu'

table = {"feat0": [0.5, -1.0, 0.25, 2.0], "feat1": [1.5, 0.0, -0.5, 1.0], "label": [1, 0, 0, 1]}
rng = random.Random(3)


def collected_batches(rounds, per_round, batch):
    for r in range(rounds):
        for _ in range(per_round):
            a, b = rng.uniform(-2, 2), rng.uniform(-2, 2)
            table["feat0"].append(round(a, 4))
            table["feat1"].append(round(b, 4))
            table["label"].append(int(a + 0.5 * b > 0))
        n = len(table["label"])
        yield [rng.randrange(n) for _ in range(batch)]


class ScoredBatch:
    def __init__(self, scores):
        self.scores = scores

    @property
    def noisy(self):
        return self.scores + 0.01 * torch.randn(self.scores.shape)


model = nn.Linear(2, 2).to(device)
opt = torch.optim.SGD(model.parameters(), lr=0.2)
replay = {"x": [], "y": []}

for step, idx in enumerate(collected_batches(rounds=6, per_round=3, batch=5)):
    f0 = torch.tensor([table["feat0"][i] for i in idx], device=device)
    f1 = torch.tensor([table["feat1"][i] for i in idx], device=device)
    y = torch.tensor([table["label"][i] for i in idx], device=device)
    x = torch.stack([f0, f1], dim=1)
    logits = model(x)
    loss = F.cross_entropy(logits, y)
    opt.zero_grad()
    loss.backward()
    opt.step()
    for row, lab in zip(x.cpu(), y.cpu()):
        replay["x"].append(row.tolist())
        replay["y"].append(int(lab))
    pick = [(step * 7 + j) % len(replay["y"]) for j in range(4)]
    rx = torch.tensor([replay["x"][i] for i in pick])
    ry = torch.tensor([replay["y"][i] for i in pick])
    sb = ScoredBatch(logits.detach().cpu()[:, 1])
    smooth = torch.zeros(len(sb.scores))
    for i in range(len(sb.scores)):
        smooth[i] = sb.noisy[i] * 2 + 1
    print(step, len(table["label"]), idx, "%.10f" % loss.item(), rx.dtype, ry.tolist(),
          ["%.7f" % v for v in smooth.tolist()])
print(torch.randn(2).tolist())
