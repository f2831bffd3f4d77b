# corpus: runnable
# Red team 48, PROBE after first contact (not blind): the first contact's rewritten evaluation helper
# (evaluate.py, fixed on its own) called on a library-only model (nn.Sequential) that contains a
# TransformerEncoderLayer and an LSTM-free attention stack: in eval mode with grad off PyTorch takes the
# fused fast path, whose results differ in the last bits from the autograd path. Losses print to 12 digits.
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset

from evaluate import evaluate

torch.manual_seed(27)
torch.set_num_threads(1)
device = 'cuda' if torch.cuda.is_available() else 'cpu'

model = nn.Sequential(nn.Linear(3, 8), nn.TransformerEncoderLayer(8, 2, 16, dropout=0.0, batch_first=True),
                      nn.TransformerEncoderLayer(8, 2, 16, dropout=0.0, batch_first=True), nn.Flatten(),
                      nn.Linear(5 * 8, 2)).to(device)
opt = torch.optim.SGD(model.parameters(), lr=0.05)
train = DataLoader(TensorDataset(torch.randn(32, 5, 3), torch.randint(0, 2, (32,))), batch_size=8)
val = DataLoader(TensorDataset(torch.randn(24, 5, 3), torch.randint(0, 2, (24,))), batch_size=8)
for epoch in range(2):
    for xb, yb in train:
        xb, yb = xb.to(device), yb.to(device)
        loss = F.cross_entropy(model(xb), yb)
        opt.zero_grad()
        loss.backward()
        opt.step()
    vl, va = evaluate(model, val, device)
    print(f"epoch {epoch} val {vl!r} acc {va:.4f}")
