# corpus: runnable
import torch
torch.manual_seed(0)
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
model = torch.nn.Linear(4, 2).to(device)
model.eval()
data = [torch.randn(3, 4) for _ in range(3)]
outs = []
for x in data:
    y = model(x.to(device)) \
        .sum()
    s = """a
b"""
    t = f"""{len(s)}
  x"""
# a comment at column 0
    outs.append(y.item() + len(t))
else:
    print("done")
print(outs)
res = []
for x in data: res.append(model(x.to(device)).sum().item())
print(res)
res2 = []
for x in data:
    def f(z):
        return model(z).sum()
    res2.append(f(x.to(device)).item())
print(res2)
res3 = [];
for x in data: out = model(x.to(device)); res3.append(out.max().item())
print(res3)
