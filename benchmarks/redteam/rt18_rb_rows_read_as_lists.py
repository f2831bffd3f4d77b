# corpus: runnable
# Replay buffers of `.tolist()` rows where a sampled row is also read as a Python list: added
# to another list, its length asked after appending to it, JSON-dumped, compared with `==`,
# changed in place through the buffer, and the buffer's rows of a float64 state.
import json
import random
import torch

torch.set_num_threads(1)
torch.manual_seed(0)
random.seed(0)
states = torch.randn(12, 3)
buffer = []
for step in range(12):
    buffer.append((states[step].tolist(), step % 2))
out = []
for it in range(3):
    idx = random.sample(range(len(buffer)), 4)
    s = torch.tensor([buffer[i][0] for i in idx])
    a = torch.tensor([buffer[i][1] for i in idx])
    out.append((round(s.sum().item(), 5), a.tolist()))
first = buffer[0][0]
print("A", out, len(first + [0.0]), json.dumps([round(v, 3) for v in first]), first == buffer[0][0])

buf2 = []
for step in range(6):
    buf2.append(states[step].double().tolist())
buf2[0][0] = 1e-9
picked = torch.tensor([buf2[i] for i in [0, 1]])
print("B", str(picked.dtype), repr(picked[0, 0].item()))

buf3 = []
for step in range(6):
    row = states[step].tolist()
    buf3.append(row)
    row.append(float(step))
print("C", [len(r) for r in buf3], torch.tensor([buf3[i] for i in [1, 2]]).shape)
