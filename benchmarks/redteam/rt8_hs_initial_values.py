# corpus: runnable
# Running losses whose start value or update decides the printed result: a NumPy float32
# start, an exponential moving average, a sum that starts as an int and only sometimes gets
# a float, a `Decimal`-free integer count of correct predictions, a sum kept across epochs.
import numpy as np
import torch
import torch.nn as nn

torch.manual_seed(0)
torch.set_num_threads(1)
device = "cuda" if torch.cuda.is_available() else "cpu"
model = nn.Linear(4, 3).to(device)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
batches = [(torch.randn(8, 4), torch.randint(0, 3, (8,))) for _ in range(5)]

total32 = np.float32(0.0)
for x, y in batches:
    loss = nn.functional.cross_entropy(model(x.to(device)), y.to(device))
    opt.zero_grad()
    loss.backward()
    opt.step()
    total32 += loss.item()
print("float32 total", repr(total32), type(total32).__name__)

smooth = 0.0
for x, y in batches:
    loss = nn.functional.cross_entropy(model(x.to(device)), y.to(device))
    opt.zero_grad()
    loss.backward()
    opt.step()
    smooth = 0.9 * smooth + 0.1 * loss.item()
print("ema", repr(smooth))

carry = 0
for epoch in range(2):
    for x, y in batches:
        loss = nn.functional.cross_entropy(model(x.to(device)), y.to(device))
        opt.zero_grad()
        loss.backward()
        opt.step()
        carry += loss.item()
    print("epoch", epoch, repr(carry))

correct = 0
with torch.no_grad():
    for x, y in batches:
        correct += (model(x.to(device)).argmax(1) == y.to(device)).sum().item()
print("correct", repr(correct))

total_arr = np.zeros(1)
for x, y in batches:
    loss = nn.functional.cross_entropy(model(x.to(device)), y.to(device))
    total_arr += loss.item()
print("array total", total_arr.dtype, repr(total_arr[0]))
