# corpus: runnable
# Red team 32b, wave 2 (blind): the distillation schedule of wave 1's notebook split into a local
# module: `prep.py` holds the NumPy helper, the knobs it reads and the schedule that changes them;
# the script imports both and calls them every epoch on the unchanged teacher scores.
import numpy as np
import torch
import torch.nn.functional as F
from torch import nn

from prep import anneal, soften

torch.set_num_threads(1)
torch.manual_seed(13)
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
rng = np.random.default_rng(13)
teacher_scores = rng.normal(0.0, 3.0, (24, 3))
x = torch.randn(24, 4).to(device)
student = nn.Linear(4, 3).to(device)
opt = torch.optim.SGD(student.parameters(), lr=0.5)
for epoch in range(4):
    anneal(0.6)
    targets = soften(teacher_scores)
    loss = F.kl_div(F.log_softmax(student(x), -1), torch.from_numpy(targets).to(device), reduction="batchmean")
    opt.zero_grad()
    loss.backward()
    opt.step()
    print(epoch, round(loss.item(), 6), targets[0].round(5).tolist())
