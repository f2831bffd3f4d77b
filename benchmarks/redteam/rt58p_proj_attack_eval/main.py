# corpus: runnable
# Red team 58 probe (not blind): a robustness evaluation between training epochs: the model is put in eval mode and
# each validation batch is attacked by helpers of another module (FGSM with loss.backward() on the input, an
# input-saliency read): the eval section needs autograd although its own text never calls backward.
import torch
import torch.nn as nn
import torch.nn.functional as F
from attacks import fgsm, input_saliency
torch.manual_seed(5824)
torch.set_num_threads(1)
device = 'cuda' if torch.cuda.is_available() else 'cpu'

teacher = nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 3)).to(device)
opt = torch.optim.SGD(teacher.parameters(), lr=0.1)
x = torch.randn(64, 4, device=device); y = torch.randint(0, 3, (64,), device=device)
for epoch in range(3):
    teacher.train()
    loss = F.cross_entropy(teacher(x), y)
    opt.zero_grad()
    loss.backward()
    opt.step()
    teacher.eval()
    correct = 0
    sal = 0.0
    for i in range(0, 64, 16):
        xb, yb = x[i:i+16], y[i:i+16]
        xa = fgsm(teacher, xb, yb, 0.1)
        correct += (teacher(xa).argmax(1) == yb).sum().item()
        sal += input_saliency(teacher, xb)
    print("checksum", correct, round(sal, 6))
