# corpus: runnable
import torch
torch.manual_seed(0)
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
feats = [torch.randn(8, 3).to(device) for _ in range(3)]
for episode, x in enumerate(feats):
    bias = torch.nn.Parameter(torch.zeros(3, device=device))
    scale = torch.nn.Parameter(torch.ones(3).to(device))
    opt = torch.optim.SGD([bias, scale], lr=0.5)
    for step in range(2):
        loss = ((x * scale + bias) ** 2).mean()
        opt.zero_grad(); loss.backward(); opt.step()
    print(episode, round(loss.item(), 5))
