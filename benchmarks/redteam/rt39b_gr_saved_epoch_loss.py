# corpus: runnable
# Red team 39, wave 2 (blind): the epoch's summed loss goes into the checkpoint dict as it is (a tensor), the
# checkpoint is written with `torch.save` to an in-memory buffer and read back for the resume log, as many
# training scripts store `"loss": epoch_loss` next to the state dicts.
import io

import torch
import torch.nn as nn

torch.manual_seed(31)
torch.set_num_threads(1)
device = "cuda" if torch.cuda.is_available() else "cpu"

model = nn.Linear(4, 2).to(device)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
x = torch.randn(32, 4, device=device)
y = torch.randint(0, 2, (32,), device=device)
for epoch in range(2):
    epoch_loss = 0
    for s in range(0, 32, 8):
        loss = nn.functional.cross_entropy(model(x[s : s + 8]), y[s : s + 8])
        opt.zero_grad()
        loss.backward()
        opt.step()
        epoch_loss += loss
    buf = io.BytesIO()
    torch.save({"epoch": epoch, "model": model.state_dict(), "loss": epoch_loss}, buf)
    buf.seek(0)
    ckpt = torch.load(buf, weights_only=False)
    print(epoch, repr(ckpt["loss"]), ckpt["loss"].requires_grad, ckpt["loss"].is_leaf)
