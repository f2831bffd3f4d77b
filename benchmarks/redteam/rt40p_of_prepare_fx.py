# corpus: runnable
# Red team 40 probe (not blind: written after first contact): FX graph-mode post-training quantization
# (`prepare_fx`, calibration, `convert_fx`) of a block with a hand-written leaky ReLU. prepare_fx traces
# the block and places observers by op pattern: what it observes and quantizes depends on the ops the
# trace records, not only on what they compute.
import warnings

import torch
import torch.nn as nn
from torch.ao.quantization import get_default_qconfig_mapping
from torch.ao.quantization.quantize_fx import convert_fx, prepare_fx

warnings.filterwarnings("ignore")
torch.manual_seed(50)
torch.set_num_threads(1)
torch.backends.quantized.engine = "qnnpack" if "qnnpack" in torch.backends.quantized.supported_engines else "fbgemm"
device = "cuda" if torch.cuda.is_available() else "cpu"


class Block(nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.a = nn.Linear(8, 8)
        self.b = nn.Linear(8, 4)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        h = self.a(x)
        h = torch.where(h > 0, h, 0.1 * h)
        return self.b(h)


model = Block().eval()
x = torch.randn(64, 8)
float_out = model(x)
prepared = prepare_fx(model, get_default_qconfig_mapping(torch.backends.quantized.engine), (x[:4],))
for i in range(0, 64, 16):
    prepared(x[i : i + 16])
quantized = convert_fx(prepared)
q_out = quantized(x)
ops = sorted({str(n.target) for n in quantized.graph.nodes if n.op in ("call_function", "call_method")})
print(f"{float_out.double().sum().item():.15f}", f"{q_out.double().sum().item():.15f}")
print(f"{(q_out - float_out).abs().max().item():.15f}", len(ops))
for step in range(3):
    xb = torch.randn(16, 8, device="cpu")
    print(step, f"{quantized(xb).double().pow(2).mean().item():.15f}")
