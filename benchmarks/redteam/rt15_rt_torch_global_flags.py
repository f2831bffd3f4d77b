# corpus: runnable
# torch's global switches flipped inside loops that read them: deterministic algorithms, anomaly
# detection, cuDNN flags (through `torch.backends.cudnn` and an alias), matmul precision.
import torch
import torch.backends.cudnn as cudnn

torch.set_num_threads(1)
det = []
for step in range(3):
    on = torch.tensor(torch.are_deterministic_algorithms_enabled())
    torch.use_deterministic_algorithms(step % 2 == 0)
    det.append(bool(on))
torch.use_deterministic_algorithms(False)
print("deterministic", det)

anom = []
for step in range(3):
    a = torch.tensor(torch.is_anomaly_enabled())
    torch.autograd.set_detect_anomaly(step % 2 == 0)
    anom.append(bool(a))
torch.autograd.set_detect_anomaly(False)
print("anomaly", anom)

bench = []
for step in range(3):
    b = torch.tensor([torch.backends.cudnn.benchmark, cudnn.deterministic])
    cudnn.benchmark = not cudnn.benchmark
    torch.backends.cudnn.deterministic = step % 2 == 0
    bench.append(b.tolist())
cudnn.benchmark = False
cudnn.deterministic = False
print("cudnn", bench)

prec = []
for step in range(3):
    p = torch.tensor(["highest", "high", "medium"].index(torch.get_float32_matmul_precision()))
    torch.set_float32_matmul_precision(["high", "medium", "highest"][step])
    prec.append(int(p))
torch.set_float32_matmul_precision("highest")
print("matmul precision", prec)
