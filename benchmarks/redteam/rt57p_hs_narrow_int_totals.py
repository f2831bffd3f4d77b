# corpus: runnable
# Red team 57 probe (not blind): dataset statistics gathered during the first training epoch from uint8
# images and masks: the sum of each batch's brightest pixel (`+= batch.max().item()`, a uint8 value), the
# class id of each batch's first pixel (uint8), token counts from int32 lengths, next to float totals of the
# same reads. On the device a uint8 running total wraps at 256 where Python's int does not.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(5722)
torch.set_num_threads(1)
device = 'cuda' if torch.cuda.is_available() else 'cpu'

g = torch.Generator().manual_seed(5722)
images = torch.randint(0, 256, (96, 3, 8, 8), generator=g, dtype=torch.uint8)
masks = torch.randint(0, 3, (96, 8, 8), generator=g, dtype=torch.uint8)
lengths = torch.randint(1, 60000, (96,), generator=g, dtype=torch.int32)
model = nn.Conv2d(3, 3, 1).to(device)
opt = torch.optim.SGD(model.parameters(), lr=0.05)

peak_sum = 0
first_class_sum = 0
token_total = 0
peak_mean = 0.0
loss_total = 0.0
for i in range(0, 96, 4):
    batch = images[i:i + 4].to(device)
    m = masks[i:i + 4].to(device)
    out = model(batch.float() / 255)
    loss = F.cross_entropy(out, m.long())
    opt.zero_grad()
    loss.backward()
    opt.step()
    peak_sum += batch.max().item()
    first_class_sum += m[0, 0, 0].item()
    token_total += lengths[i].item() * 40000
    peak_mean += batch.amax().item()
    loss_total += loss.item()
print('peak sum', peak_sum, 'first classes', first_class_sum, 'tokens', token_total)
print(f'peak mean {peak_mean / 24:.6f} loss {loss_total / 24:.10f}')
print('checksum', peak_sum + first_class_sum + token_total % 1000003, round(peak_mean + loss_total, 6))
