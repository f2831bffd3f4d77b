# corpus: runnable
# Red team 37 (blind): data-quality counters in a preprocessing script. "Positive part" helpers written by
# hand are applied to whatever the checks return: sometimes counts, sometimes boolean masks from
# comparisons (torch.isin / .ge / logical_and), as a generic helper would.
import torch

torch.manual_seed(4)
torch.set_num_threads(1)

tokens = torch.randint(0, 50, (6, 10))
stop = torch.tensor([0, 1, 2, 3])
scores = torch.rand(6, 10)

is_stop = torch.isin(tokens, stop)
keep = scores.ge(0.5)
both = torch.logical_and(keep, ~is_stop)

kept_stop = is_stop * (is_stop > 0)
kept_keep = torch.where(keep > 0, keep, 0)
kept_both = torch.maximum(both, torch.zeros_like(both))
print(kept_stop.dtype, kept_keep.dtype, kept_both.dtype)
print(kept_stop.sum().item(), kept_keep.sum().item(), kept_both.sum().item())
print(kept_keep.float().mean(1).tolist())
