# corpus: runnable
import torch
torch.manual_seed(0)
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
model = torch.nn.Linear(4, 4).to(device)
for step in range(3):
    noise = torch.randn(2, 4).to(device)
    perm = torch.randperm(4).to(device)
    drop = torch.rand(2, 4).to(device) > 0.5
    z = torch.empty(2, 4).normal_().to(device)
    print((model(noise)[:, perm] * drop).sum().item(), z.sum().item())
