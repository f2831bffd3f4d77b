# corpus: runnable
# Red team 48 (blind): "keep the first example's prediction of every epoch" through a host round trip
# (`torch.tensor(row.tolist())`), a row of a batch output. The kept snapshots are serialised with
# torch.save and pickle (which write the WHOLE storage a tensor views) and their storage is inspected.
import io
import pickle

import torch
import torch.nn as nn

torch.manual_seed(13)
torch.set_num_threads(1)
device = 'cuda' if torch.cuda.is_available() else 'cpu'

model = nn.Sequential(nn.Linear(3, 8), nn.Sigmoid(), nn.Linear(8, 4)).to(device)
opt = torch.optim.SGD(model.parameters(), lr=0.3)
X = torch.randn(32, 3).to(device)
T = torch.randn(32, 4).to(device)

kept = []
kept_means = []
for epoch in range(4):
    out = model(X)
    loss = (out - T).pow(2).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
    with torch.no_grad():
        first = out[0]
        snap = torch.tensor(first.tolist())
        kept.append(snap)
        col = out[:, 1]
        kept_means.append(torch.tensor(col.tolist()).mean())
    print(f"epoch {epoch} loss {loss.item():.10f}")

buf = io.BytesIO()
torch.save(kept, buf)
print("torch.save bytes", len(buf.getvalue()))
print("pickle bytes", len(pickle.dumps(kept)))
print("storage elements", [s.untyped_storage().nbytes() for s in kept])
print("offsets", [s.storage_offset() for s in kept], "strides", [s.stride() for s in kept])
print("dtypes", {str(s.dtype) for s in kept}, "devices", {str(s.device) for s in kept})
print("means", [round(m.item(), 8) for m in kept_means])
print("same storage", kept[0].untyped_storage().data_ptr() == kept[1].untyped_storage().data_ptr())
