# corpus: runnable
import argparse
import torch
parser = argparse.ArgumentParser()
parser.add_argument("--gpu", default=None, type=int)
args = parser.parse_args([])
rank = None
if torch.cuda.is_available():
    model = torch.nn.Linear(3, 1).cuda(args.gpu)
for step in range(3):
    w = torch.ones(3).cuda(args.gpu) if torch.cuda.is_available() else torch.ones(3)
    z = torch.arange(step + 2).cuda(args.gpu) if torch.cuda.is_available() else torch.arange(step + 2)
    t = torch.arange(step + 2).to(rank) if rank is not None else torch.arange(step + 2)
    print(w.sum().item(), z.sum().item(), t.sum().item())
for step in range(2):
    q = torch.arange(step + 3).cuda(non_blocking=True) if torch.cuda.is_available() else torch.arange(step + 3)
    print(q.sum().item())
