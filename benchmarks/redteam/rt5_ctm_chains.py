# corpus: runnable
# Host tensors built then moved, where the chain between the factory and the move draws
# random numbers (`uniform_`, `normal_`, `bernoulli_`, `randperm`), mixes in another host
# tensor, or makes a leaf that requires grad: on a GPU, building on the device draws from
# the CUDA generator and mixes devices.
import torch

torch.manual_seed(0)
torch.set_num_threads(1)
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
host_scale = torch.linspace(0.5, 1.5, 6)
bias = torch.zeros(1, device=device)

for step in range(2):
    w = torch.empty(step + 2, 3).uniform_(-1, 1).to(device)
    print("uniform_", [round(v, 5) for v in (w + bias).flatten().tolist()])

for step in range(2):
    z = torch.zeros(step + 3).normal_(0, 0.1).to(device)
    print("normal_", [round(v, 5) for v in (z + bias).tolist()])

for step in range(2):
    keep = torch.ones(step + 4).bernoulli_(0.5).to(device)
    print("bernoulli_", (keep + bias).tolist())

for step in range(2):
    perm = torch.randperm(step + 5).to(device)
    print("randperm", (perm + bias).tolist())

for step in range(2):
    idx = torch.randperm(6)[: step + 2].to(device)
    print("randperm slice", (idx + bias).tolist())

for step in range(2):
    pos = torch.arange(6).float().mul(host_scale).add(step).to(device)
    print("host operand", (pos + bias).tolist())

for step in range(2):
    grid = torch.cat([torch.zeros(step + 1), host_scale[:2]]).to(device)
    print("joined host", (grid + bias).tolist())

for step in range(2):
    rows = torch.arange(6).index_select(0, torch.tensor([0, step + 1])).to(device)
    print("index_select", (rows + bias).tolist())

for step in range(2):
    p = torch.full((step + 1,), 0.5, requires_grad=True).to(device)
    (p * 2).sum().backward()
    print("leaf", p.is_leaf, p.grad)

for step in range(2):
    m = torch.rand(step + 2).lt(0.5).to(device)
    print("rand chain", (m + bias).tolist())

for step in range(2):
    q = torch.Tensor([1.0, 2.0, step]).to(device)
    r = torch.LongTensor([1, step]).to(device)
    print("legacy", (q + bias).tolist(), (r + bias).tolist())
