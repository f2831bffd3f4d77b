# corpus: runnable
import random
import torch
torch.manual_seed(0)
random.seed(0)
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
net = torch.nn.Linear(4, 2).to(device)
buf = []
for step in range(12):
    state = torch.randn(4)
    done = step % 5 == 4
    buf.append(state.tolist() if not done else [0.0] * 4)
    if len(buf) >= 4:
        picks = random.sample(range(len(buf)), 4)
        batch = torch.tensor([buf[i] for i in picks], device=device)
        print(step, round(net(batch).sum().item(), 5))
print(len(buf), buf[0][:2])
