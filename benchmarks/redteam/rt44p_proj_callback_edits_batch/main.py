# corpus: runnable
# Red team 44 probe (after first contact, not blind): a callback in another module edits the host batch in
# place right after the loop copied it to the device (a non_blocking copy from pinned memory could read the
# edited values on a GPU).
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset

from callbacks import ImageLogger

torch.manual_seed(0)
torch.set_num_threads(1)
device = 'cuda' if torch.cuda.is_available() else 'cpu'

g = torch.Generator().manual_seed(6)
data = TensorDataset(torch.randn(48, 3, 4, 4, generator=g), torch.randint(0, 2, (48,), generator=g))
loader = DataLoader(data, batch_size=8, shuffle=False, num_workers=2)
model = nn.Sequential(nn.Flatten(), nn.Linear(48, 2)).to(device)
opt = torch.optim.SGD(model.parameters(), lr=0.05)
logger = ImageLogger()
for epoch in range(2):
    for batch in loader:
        x, y = batch[0].to(device), batch[1].to(device)
        logger.on_batch_start(batch)
        loss = F.cross_entropy(model(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
    print("epoch", epoch, "%.10f" % loss.item())
print("thumbs", logger.thumbs[:3], len(logger.thumbs))
