# corpus: runnable
# Red team 29b, wave 2 (blind): Grad-CAM hooks stay registered on the model for the whole run
# (gradcam.py); engine.py's loops get the model as a parameter.
import torch

import engine
from gradcam import GradCAM
from models import SignalCNN

torch.manual_seed(0)
torch.set_num_threads(1)
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
g = torch.Generator().manual_seed(8)


def make(n):
    y = torch.randint(0, 3, (n,), generator=g)
    t = torch.linspace(0, 6.28, 32)
    x = torch.sin(t * (y[:, None] + 1)) + 0.3 * torch.randn(n, 32, generator=g)
    return x[:, None, :], y


train = [make(12) for _ in range(5)]
val = [make(12) for _ in range(2)]
model = SignalCNN().to(device)
cam = GradCAM(model, model.features[2])
opt = torch.optim.Adam(model.parameters(), lr=0.01)
for epoch in range(3):
    tr = engine.train_epoch(model, opt, train, device)
    vl, acc = engine.evaluate(model, val, device)
    print(epoch, round(tr, 5), round(vl, 5), round(acc, 4))
x, y = val[0]
heat = cam(x.to(device), y.to(device))
print("cam", [round(v, 4) for v in heat[0, :6].tolist()])
