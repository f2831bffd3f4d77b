# corpus: runnable
# Evaluation loops (no backward in them, no `no_grad`) whose model keeps what a later saliency pass
# needs: a forward hook calling `output.retain_grad()` on the activation, a forward that registers
# a tensor hook on its hidden state, a module storing activations that a later `backward` reads.
import torch
from torch import nn

torch.set_num_threads(1)
torch.manual_seed(0)
device = "cuda" if torch.cuda.is_available() else "cpu"


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv1d(2, 4, 3, padding=1)
        self.fc = nn.Linear(4 * 10, 3)
        self.grads = []

    def forward(self, x):
        h = torch.relu(self.conv(x))
        h.register_hook(lambda g: self.grads.append(g.norm().item()))
        return self.fc(h.flatten(1))


kept = {}


def keep_activation(module, inputs, output):
    output.retain_grad()
    kept["act"] = output


model = Net().to(device)
model.conv.register_forward_hook(keep_activation)
model.eval()
data = [torch.randn(4, 2, 10) for _ in range(3)]

preds = []
for x in data:
    logits = model(x.to(device))
    preds.append(logits.argmax(-1))
print("preds", torch.cat(preds).tolist())

# the saliency pass on the last batch's kept activation
logits.max(-1).values.sum().backward()
print("cam", kept["act"].grad.abs().sum().item() > 0, len(model.grads))
