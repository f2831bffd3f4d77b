# corpus: runnable
import torch
torch.manual_seed(0)
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
n = 2
for epoch in range(3):
    pos = torch.arange(n, device=device).float()
    print(pos.sum().item())
    if (k := epoch + 1) > 1:
        n = k + 2
m = 2
for epoch in range(3):
    z = torch.ones(m, device=device)
    print(z.sum().item())
    for m in range(epoch + 3, epoch + 4):
        pass
q = 2
for epoch in range(3):
    z2 = torch.ones(q, device=device)
    print(z2.sum().item())
    with open(__file__) as q_file:
        q = len(q_file.readline()) % 5 + epoch
