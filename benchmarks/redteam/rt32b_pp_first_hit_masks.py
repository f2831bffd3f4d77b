# corpus: runnable
# Red team 32b, wave 1 (blind): early-exit statistics of a multi-exit classifier. For every sample
# the script finds the first exit whose confidence passes the threshold (`np.argmax` of a boolean
# mask: the first True) and the first exit that is wrong, computed with NumPy on host copies of
# the masks, then sends the exit indices back to the device to gather the chosen logits.
import numpy as np
import torch
import torch.nn.functional as F
from torch import nn

torch.set_num_threads(1)
torch.manual_seed(5)
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
THRESHOLD = 0.42


class MultiExit(nn.Module):
    def __init__(self):
        super().__init__()
        self.blocks = nn.ModuleList([nn.Linear(6, 6) for _ in range(3)])
        self.exits = nn.ModuleList([nn.Linear(6, 3) for _ in range(3)])

    def forward(self, x):
        outs = []
        for block, exit_head in zip(self.blocks, self.exits):
            x = torch.tanh(block(x))
            outs.append(exit_head(x))
        return torch.stack(outs, 1)


model = MultiExit().to(device)
opt = torch.optim.SGD(model.parameters(), lr=0.5)
x = torch.randn(16, 6).to(device)
y = torch.randint(0, 3, (16,)).to(device)
for epoch in range(3):
    logits = model(x)
    loss = sum(F.cross_entropy(logits[:, k], y) for k in range(3))
    opt.zero_grad()
    loss.backward()
    opt.step()
    with torch.no_grad():
        conf = logits.softmax(-1).amax(-1)
        confident = conf > THRESHOLD
        wrong = logits.argmax(-1) != y[:, None]
        exit_at = torch.from_numpy(np.argmax(confident.cpu().numpy(), axis=1)).to(device)
        first_wrong = torch.from_numpy(wrong.cpu().numpy().argmax(axis=1)).to(device)
        chosen = logits[torch.arange(16, device=device), exit_at]
    print(f"epoch {epoch} loss {loss.item():.6f} exits {exit_at.tolist()}")
    print("  first wrong", first_wrong.tolist(), "chosen acc", (chosen.argmax(-1) == y).float().mean().item())
