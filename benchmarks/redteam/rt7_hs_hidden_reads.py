# corpus: runnable
# `.item()` sums read inside the loop without the name appearing: `globals()`, `eval`, an
# lr-scheduler lambda, a tensor hook, a `finally:` clause around the loop, a logger reading a dict
# of `locals()`, `vars()` of a namespace module.
import torch
import torch.nn as nn

torch.manual_seed(0)
torch.set_num_threads(1)
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
model = nn.Linear(4, 1).to(device)
batches = [(torch.randn(6, 4), torch.randn(6, 1)) for _ in range(5)]


def report(step):
    print("step", step, "running", round(globals()["running"], 6))


running = 0.0
for step, (xb, yb) in enumerate(batches):
    loss = nn.functional.mse_loss(model(xb.to(device)), yb.to(device))
    running += loss.item()
    report(step)
print("running", round(running, 6))

seen = 0.0
for xb, yb in batches:
    loss = nn.functional.l1_loss(model(xb.to(device)), yb.to(device))
    seen += loss.item()
    print("eval", type(eval("seen")).__name__)
print("seen", round(seen, 6))

opt = torch.optim.SGD(model.parameters(), lr=0.1)
total_loss = 0.0
sched = torch.optim.lr_scheduler.LambdaLR(opt, lambda epoch: 1.0 / (1.0 + total_loss))
for xb, yb in batches:
    opt.zero_grad()
    loss = nn.functional.mse_loss(model(xb.to(device)), yb.to(device))
    loss.backward()
    opt.step()
    total_loss += loss.item()
    sched.step()
    print("lr", type(opt.param_groups[0]["lr"]).__name__, round(float(opt.param_groups[0]["lr"]), 6))
print("total", round(total_loss, 6))

grad_seen = 0.0
for xb, yb in batches:
    opt.zero_grad()
    out = model(xb.to(device))
    out.register_hook(lambda g: print("hook", type(grad_seen).__name__))
    loss = nn.functional.mse_loss(out, yb.to(device))
    grad_seen += loss.item()
    loss.backward()
print("grad_seen", round(grad_seen, 6))

partial = 0.0
try:
    for i, (xb, yb) in enumerate(batches):
        loss = nn.functional.mse_loss(model(xb.to(device)), yb.to(device))
        partial += loss.item()
        if i == 3:
            raise StopIteration("early stop")
except StopIteration:
    pass
finally:
    print("partial", type(partial).__name__, round(float(partial), 6))

acc = 0.0
for xb, yb in batches:
    loss = nn.functional.mse_loss(model(xb.to(device)), yb.to(device))
    acc += loss.item()
    state = dict(locals())
    print("locals", type(state["acc"]).__name__)
print("acc", round(acc, 6))
