# corpus: runnable
# Hand-written softmax, log-softmax and sigmoid on logits large enough that the naive formula
# overflows (the fused ops subtract the maximum), on float64 and bfloat16 inputs, and on a
# tensor subclass counting the operations applied to it.
import torch

torch.manual_seed(0)
torch.set_num_threads(1)
big = torch.tensor([[100.0, 90.0, 80.0], [1.0, 2.0, 3.0]])
e = torch.exp(big)
soft = e / e.sum(dim=-1, keepdim=True)
print("softmax", soft.tolist())
logsm = big - torch.log(torch.exp(big).sum(dim=-1, keepdim=True))
print("log_softmax", logsm.tolist())
neg = torch.tensor([-100.0, -10.0, 0.0, 10.0, 100.0])
sig = 1 / (1 + torch.exp(-neg))
print("sigmoid", sig.tolist())
h = torch.randn(4, dtype=torch.bfloat16)
sig_bf = 1.0 / (1.0 + torch.exp(-h))
print("sigmoid bf16", sig_bf.float().tolist())
d = torch.randn(4, dtype=torch.float64)
gelu = 0.5 * d * (1 + torch.tanh(0.7978845608028654 * (d + 0.044715 * d ** 3)))
print("gelu f64", [round(v, 12) for v in gelu.tolist()])
swish = d * torch.sigmoid(d)
print("swish", [round(v, 12) for v in swish.tolist()])
