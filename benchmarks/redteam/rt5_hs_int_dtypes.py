# corpus: runnable
# Image statistics gathered per batch with `.item()` while training: uint8 pixel maxima,
# int16 / int32 counters, and a `.item()` guarded by try/except for multi-element tensors.
import torch
import torch.nn as nn

torch.manual_seed(0)
torch.set_num_threads(1)
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")

images = torch.randint(0, 256, (40, 1, 8, 8), dtype=torch.uint8)
labels = torch.randint(0, 3, (40,))
model = nn.Sequential(nn.Flatten(), nn.Linear(64, 3)).to(device)
opt = torch.optim.SGD(model.parameters(), lr=0.01)
loss_fn = nn.CrossEntropyLoss()

bright = 0
dark = 0
ids_sum = 0
token_ids = torch.randint(2**30, 2**31 - 1, (40,), dtype=torch.int32)
for i in range(0, 40, 4):
    xb = images[i:i + 4].to(device)
    yb = labels[i:i + 4].to(device)
    bright += xb.max().item()
    dark += xb.min().to(torch.int8).item()
    ids_sum += token_ids[i].item()
    out = model(xb.float() / 255)
    loss = loss_fn(out, yb)
    opt.zero_grad()
    loss.backward()
    opt.step()
print("bright", bright, "dark", dark, "ids", ids_sum)

small = 0
counts = torch.tensor([30000, 30000, 30000, 30000], dtype=torch.int16)
for step in range(4):
    out = model(images[:4].to(device).float() / 255)
    loss = loss_fn(out, labels[:4].to(device))
    opt.zero_grad()
    loss.backward()
    opt.step()
    small += counts[step].item()
print("small", small)

skipped = 0
total = 0.0
for step in range(6):
    xb = images[step * 4:(step + 1) * 4].to(device)
    out = model(xb.float() / 255)
    loss = loss_fn(out, labels[step * 4:(step + 1) * 4].to(device))
    opt.zero_grad()
    loss.backward()
    opt.step()
    piece = loss if step % 2 == 0 else out[:, 0]
    try:
        total += piece.item()
    except (RuntimeError, ValueError):
        skipped += 1
print("total", round(total, 6), "skipped", skipped)
