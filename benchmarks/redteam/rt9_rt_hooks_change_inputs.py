# corpus: runnable
# Constant inputs handed to modules whose hooks change their argument in place: a forward
# pre-hook normalising the prompt in place, a pre-hook adding a fixed bias (input "calibration"),
# a forward hook clamping a shared buffer. Hoisting the tensor out of the loop makes the hook's
# change accumulate across iterations.
import torch
import torch.nn as nn

torch.manual_seed(0)
torch.set_num_threads(1)

encoder = nn.Linear(4, 4)


def calibrate(module, inputs):
    inputs[0].mul_(0.5).add_(0.25)


encoder.register_forward_pre_hook(calibrate)
outs = []
for step in range(3):
    prompt = torch.ones(2, 4)
    outs.append(round(encoder(prompt).sum().item(), 5))
print("calibrated", outs)

head = nn.Linear(4, 2)
head.register_forward_pre_hook(lambda m, inp: inp[0].clamp_(max=0.6))
res = []
for step in range(3):
    query = torch.full((1, 4), 0.5 + step * 0.0) + torch.arange(4.0)
    res.append(round(head(query).sum().item(), 5))
print("clamped", res)


class Probe(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(3, 3)

    def forward(self, x):
        return self.fc(x)


probe = Probe()


def keep_positive(module, args, output):
    args[0].abs_()


probe.register_forward_hook(keep_positive)
vals = []
for step in range(3):
    base = torch.tensor([[-1.0, 2.0, -3.0]])
    y = probe(base)
    vals.append((round(y.sum().item(), 5), base.sum().item()))
print("probe", vals)
