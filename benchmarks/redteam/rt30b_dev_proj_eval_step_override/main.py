# corpus: runnable
# Red team 30b, wave 2 (blind; wave 1's shape on a device): runner.py's validation loop calls `self.eval_step`; this task's subclass
# scores the input-gradient norm (a smoothness metric), which needs autograd during validation.
import torch

from runner import Runner

torch.manual_seed(0)
torch.set_num_threads(1)
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")


class SmoothnessRunner(Runner):
    def eval_step(self, x, y):
        x = x.clone().requires_grad_(True)
        out = self.model(x)
        (grad,) = torch.autograd.grad(out.sum(), x)
        return grad.norm(dim=1).mean()


g = torch.Generator().manual_seed(4)
train = [(torch.randn(8, 4, generator=g), torch.randn(8, 1, generator=g)) for _ in range(5)]
val = [(torch.randn(8, 4, generator=g), torch.randn(8, 1, generator=g)) for _ in range(2)]
print(SmoothnessRunner(train, val, device).run(3))
