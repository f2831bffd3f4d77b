# corpus: runnable
# Round trips to the host and back whose result the program then relies on being a fresh,
# contiguous tensor: a transposed weight flattened with `.view`, an expanded (stride 0)
# tensor written in place, a column slice whose strides are printed, `is_contiguous()`.
import torch
import torch.nn as nn

torch.manual_seed(0)
torch.set_num_threads(1)
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
layer = nn.Linear(3, 2).to(device)

for step in range(2):
    wt = torch.tensor(layer.weight.t().cpu().tolist()).to(device)
    flat = wt.view(-1)
    print("flat", [round(v, 5) for v in flat.tolist()])

row = torch.arange(4.0, device=device)
for step in range(2):
    grid = torch.tensor(row.expand(3, 4).cpu().numpy()).to(device)
    grid[0, 0] = 100.0 + step
    print("grid", grid.sum().item())

table = torch.randn(4, 4, device=device)
for step in range(2):
    col = torch.tensor(table[:, 1].cpu().numpy()).to(device)
    print("col", col.stride(), col.is_contiguous())

img = torch.randn(1, 3, 2, 2, device=device).to(memory_format=torch.channels_last)
for step in range(2):
    copy = torch.tensor(img.cpu().numpy()).to(device)
    print("layout", copy.is_contiguous(), copy.stride())
