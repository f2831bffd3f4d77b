# corpus: runnable
# Red team 44 (blind): module hooks and a callback list. A Grad-CAM callback registers a tensor hook on the
# activation its forward hook saved and back-propagates the class score in on_batch_end; a forward hook
# rescales a block's output; a full backward hook and a forward hook collect statistics.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_num_threads(1)
device = 'cuda' if torch.cuda.is_available() else 'cpu'


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv1d(2, 6, 3, padding=1)
        self.block = nn.Conv1d(6, 6, 3, padding=1)
        self.head = nn.Linear(6, 3)

    def forward(self, x):
        h = F.relu(self.conv(x))
        h = F.relu(self.block(h))
        return self.head(h.mean(-1))


class GradCAM:
    def __init__(self, layer):
        self.acts = None
        self.grads = None
        self.maps = []
        layer.register_forward_hook(self._keep)

    def _keep(self, module, inputs, output):
        self.acts = output
        output.register_hook(self._save_grad)

    def _save_grad(self, grad):
        self.grads = grad

    def on_batch_end(self, logits, y):
        score = logits.gather(1, y[:, None]).sum()
        model.zero_grad()
        score.backward()
        weights = self.grads.mean(-1, keepdim=True)
        cam = F.relu((weights * self.acts.detach()).sum(1))
        self.maps.append(cam.sum().item())


class ActStats:
    def __init__(self, layer):
        self.means = []
        layer.register_forward_hook(lambda m, i, o: self.means.append(o.mean().item()))

    def on_batch_end(self, logits, y):
        pass


def rescale(module, inputs, output):
    return output * 0.5


model = Net().to(device)
grad_norms = []
model.head.register_full_backward_hook(lambda m, gin, gout: grad_norms.append(gout[0].norm().item()))
model.block.register_forward_hook(rescale)
opt = torch.optim.Adam(model.parameters(), lr=0.01)

g = torch.Generator().manual_seed(2)
X = torch.randn(40, 2, 10, generator=g)
Y = torch.randint(0, 3, (40,), generator=g)
train = [(X[i:i + 8].to(device), Y[i:i + 8].to(device)) for i in range(0, 40, 8)]

for epoch in range(3):
    for x, y in train:
        loss = F.cross_entropy(model(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
    print("epoch", epoch, "loss %.10f" % loss.item())

callbacks = [GradCAM(model.block), ActStats(model.conv)]
model.eval()
correct = 0
for x, y in train:
    logits = model(x)
    correct += (logits.argmax(1) == y).sum().item()
    for cb in callbacks:
        cb.on_batch_end(logits, y)
print("correct", correct)
print("cam", ["%.8f" % v for v in callbacks[0].maps])
print("act means", ["%.8f" % v for v in callbacks[1].means])
print("head grad norms", len(grad_norms), "%.8f" % sum(grad_norms))
