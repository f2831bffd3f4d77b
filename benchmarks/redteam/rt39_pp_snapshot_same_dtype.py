# corpus: runnable
# Red team 39 (blind): mean-teacher training. The teacher is an EMA of the student updated in place with
# `mul_` / `add_`. Before each EMA update the script snapshots the teacher's head through a list round trip
# with an explicit dtype equal to the weight's own (float32), and compares after the update.
import torch
import torch.nn as nn

torch.manual_seed(13)
torch.set_num_threads(1)
device = "cuda" if torch.cuda.is_available() else "cpu"

student = nn.Linear(4, 3).to(device)
teacher = nn.Linear(4, 3).to(device)
teacher.load_state_dict(student.state_dict())
for p in teacher.parameters():
    p.requires_grad_(False)
opt = torch.optim.SGD(student.parameters(), lr=0.1)
x = torch.randn(30, 4, device=device)
decay = 0.9

for step in range(6):
    xb = x[step * 5 : step * 5 + 5]
    loss = (student(xb) - teacher(xb + 0.1 * torch.randn_like(xb))).pow(2).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
    before = torch.tensor(teacher.weight.tolist(), dtype=torch.float32)
    bias_before = torch.tensor(teacher.bias.tolist())
    with torch.no_grad():
        for tp, sp in zip(teacher.parameters(), student.parameters()):
            tp.mul_(decay).add_(sp.detach(), alpha=1 - decay)
    drift = (teacher.weight.cpu() - before).abs().sum()
    bdrift = (teacher.bias.cpu() - bias_before).abs().sum()
    print(step, f"{loss.item():.12f}", f"{drift.item():.12e}", f"{bdrift.item():.12e}")
