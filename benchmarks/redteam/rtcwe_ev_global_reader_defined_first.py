# corpus: runnable
# Probe cwe (session 54): a reporting function defined before the evaluation loop reads the
# loop's last output as a global and prints it after the loop has run.
import torch
from torch import nn

torch.manual_seed(0)
torch.set_num_threads(1)


def summary():
    print("last batch scores", scores[:2])


net = nn.Sequential(nn.Linear(3, 4), nn.Sigmoid(), nn.Linear(4, 1))
xs = torch.randn(4, 5, 3)
net.eval()
total = 0.0
for x in xs:
    scores = net(x)
    total += scores.mean().item()
print("mean score", round(total / 4, 4))
summary()
