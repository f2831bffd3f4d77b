# corpus: runnable
# Red team 46 PROBE (not blind, written after first contact): one running count updated in two places of a
# distillation step, first inside `torch.inference_mode()` (the teacher's hits) and then outside it (the
# student's hits). A tensor accumulator created by the first update would be an inference tensor, and the
# second, in-place update outside inference mode would raise.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(23)
torch.set_num_threads(1)
device = 'cuda' if torch.cuda.is_available() else 'cpu'

teacher = nn.Sequential(nn.Linear(5, 8), nn.ReLU(), nn.Linear(8, 3)).to(device)
student = nn.Linear(5, 3).to(device)
opt = torch.optim.SGD(student.parameters(), lr=0.1)
X = torch.randn(30, 5)
Y = (X[:, 0] > 0).long() + (X[:, 1] > 0).long()

hits = 0
loss_sum = 0.0
for i in range(0, 30, 6):
    x, y = X[i:i + 6].to(device), Y[i:i + 6].to(device)
    with torch.inference_mode():
        t_logits = teacher(x)
        hits += (t_logits.argmax(1) == y).sum().item()
    s_logits = student(x)
    loss = F.kl_div(s_logits.log_softmax(1), t_logits.clone().softmax(1), reduction='batchmean')
    opt.zero_grad()
    loss.backward()
    opt.step()
    hits += (s_logits.argmax(1) == y).sum().item()
    loss_sum += loss.item()
print('hits', hits, 'loss %.10f' % loss_sum)
