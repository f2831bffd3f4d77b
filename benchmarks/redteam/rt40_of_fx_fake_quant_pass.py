# corpus: runnable
# Red team 40 (blind): a block traced with `torch.fx.symbolic_trace`, then an FX pass in the style of
# graph-mode quantization inserts a fake-quantize node after every activation it recognises by target
# (`F.relu`, `F.leaky_relu`, `torch.relu`). The block writes one activation by hand (`torch.where` leaky
# ReLU, `x * (x > 0)` ReLU) and builds positions with `torch.arange(T).to(x.device)`. The pass's node
# counts and the quantized outputs are printed.
import torch
import torch.fx as fx
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(43)
torch.set_num_threads(1)
device = "cuda" if torch.cuda.is_available() else "cpu"


class Block(nn.Module):
    def __init__(self, d: int, t: int) -> None:
        super().__init__()
        self.t = t
        self.a = nn.Linear(d, d)
        self.b = nn.Linear(d, d)
        self.pos = nn.Embedding(t, d)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        positions = torch.arange(self.t).to(x.device)
        h = self.a(x + self.pos(positions))
        h = torch.where(h > 0, h, 0.1 * h)
        g = self.b(h)
        g = g * (g > 0)
        return F.relu(g) + h


ACTIVATIONS = {F.relu, F.leaky_relu, torch.relu}


def insert_fake_quant(gm: fx.GraphModule, scale: float) -> int:
    count = 0
    for node in list(gm.graph.nodes):
        if node.op == "call_function" and node.target in ACTIVATIONS:
            with gm.graph.inserting_after(node):
                q = gm.graph.call_function(torch.fake_quantize_per_tensor_affine, (node, scale, 0, -128, 127))
            node.replace_all_uses_with(q)
            q.args = (node, scale, 0, -128, 127)
            count += 1
    gm.graph.lint()
    gm.recompile()
    return count


model = Block(6, 5).to(device)
gm = fx.symbolic_trace(model)
n_nodes = len(gm.graph.nodes)
n_q = insert_fake_quant(gm, 0.05)
x = torch.randn(3, 5, 6, device=device)
ref = model(x)
out = gm(x)
print("nodes", n_nodes, "fake-quant", n_q)
print(f"{ref.double().sum().item():.15f}", f"{out.double().sum().item():.15f}", f"{(out - ref).abs().max().item():.15f}")
opt = torch.optim.SGD(gm.parameters(), lr=0.05)
for step in range(4):
    loss = gm(x).pow(2).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
    print(step, f"{loss.item():.15f}")
