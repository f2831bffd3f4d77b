# corpus: runnable
# Red team 36 (blind): an image classifier whose input copies are issued on a side CUDA stream (a hand-rolled
# prefetcher in the style of NVIDIA's apex examples, simplified). The copies are blocking, so the default stream
# can read them at once without wait_stream; on a CPU-only machine the same loop runs without streams.
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset

torch.manual_seed(4)
torch.set_num_threads(1)
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
side = torch.cuda.Stream() if device.type == "cuda" else None

images = torch.randn(512, 3, 16, 16)
targets = (images.mean(dim=(1, 2, 3)) > 0).long()
loader = DataLoader(TensorDataset(images, targets), batch_size=64, shuffle=True, num_workers=2)

model = nn.Sequential(
    nn.Conv2d(3, 8, 3, padding=1), nn.ReLU(), nn.AdaptiveAvgPool2d(4), nn.Flatten(), nn.Linear(128, 2)
).to(device)
opt = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
loss_fn = nn.CrossEntropyLoss()

for epoch in range(3):
    seen, running = 0, 0.0
    for x, y in loader:
        if side is not None:
            with torch.cuda.stream(side):
                x = x.to(device)
                y = y.to(device)
        else:
            x = x.to(device)
            y = y.to(device)
        out = model(x)
        loss = loss_fn(out, y)
        opt.zero_grad()
        loss.backward()
        opt.step()
        running += loss.item() * len(y)
        seen += len(y)
    print(f"epoch {epoch} loss {running / seen:.10f}")
