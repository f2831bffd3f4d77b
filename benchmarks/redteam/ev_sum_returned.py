# corpus: runnable
import torch
torch.manual_seed(0)
model = torch.nn.Linear(4, 1)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
chunks = [torch.randn(3, 4) for _ in range(4)]
def unrolled_loss(model, chunks):
    outs = []
    for c in chunks:
        outs.append(model(c).pow(2).mean())
    return torch.stack(outs).mean()
for step in range(3):
    loss = unrolled_loss(model, chunks)
    opt.zero_grad(); loss.backward(); opt.step()
    print(round(loss.item(), 5))
