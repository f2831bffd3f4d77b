# corpus: runnable
import torch
torch.manual_seed(0)
teacher = torch.nn.Linear(4, 3)
student = torch.nn.Linear(4, 3)
opt = torch.optim.SGD(student.parameters(), lr=0.1)
data = [torch.randn(8, 4) for _ in range(4)]
def soft_targets(batches):
    for x in batches:
        t = teacher(x)
        yield x, torch.softmax(t, -1)
for x, target in soft_targets(data):
    out = torch.log_softmax(student(x), -1)
    loss = torch.nn.functional.kl_div(out, target.detach(), reduction="batchmean")
    opt.zero_grad(); loss.backward(); opt.step()
    print(round(loss.item(), 5))
