# corpus: runnable
# Red team 34 (blind): the batches are wrapped in a tracing tensor subclass (in the style of MONAI's
# MetaTensor or a debugging tracer) that counts every torch function applied to a traced tensor, to
# report how much tensor work an epoch did. The epoch loss is accumulated as a tensor.
import torch
import torch.nn.functional as F
from torch import nn

torch.set_num_threads(1)
CALLS = {"n": 0}


class Traced(torch.Tensor):
    @classmethod
    def __torch_function__(cls, func, types, args=(), kwargs=None):
        CALLS["n"] += 1
        return super().__torch_function__(func, types, args, kwargs or {})


def main():
    torch.manual_seed(0)
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    x = torch.randn(80, 4)
    y = x[:, :1] * 2 - x[:, 1:2]
    model = nn.Linear(4, 1).to(device)
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    for epoch in range(3):
        CALLS["n"] = 0
        epoch_loss = 0
        for i in range(0, 80, 20):
            xb = x[i:i + 20].to(device).as_subclass(Traced)
            yb = y[i:i + 20].to(device).as_subclass(Traced)
            loss = F.mse_loss(model(xb), yb)
            opt.zero_grad()
            loss.backward()
            opt.step()
            epoch_loss += loss
        print(f"epoch {epoch}: loss {float(epoch_loss) / 4:.5f}, traced torch calls {CALLS['n']}")


if __name__ == "__main__":
    main()
