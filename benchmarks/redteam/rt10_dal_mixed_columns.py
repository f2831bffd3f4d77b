# corpus: runnable
# Dict-of-lists datasets whose columns mix Python types: a label column where soft labels (0.5)
# appear only in some rows, a flag column of bools and ints, sequence columns of ragged lengths
# bucketed so that each batch is rectangular. Each batch converted alone has its own dtype and
# shape; the whole column converted once has another dtype, or cannot be converted at all.
import torch

torch.manual_seed(0)
torch.set_num_threads(1)
device = "cpu"
data = {
    "x": [[float(i), float(i % 3)] for i in range(8)],
    "label": [0, 1, 1, 0, 0.5, 1, 0.5, 0],
    "flag": [True, False, 2, True, False, True, 3, False],
}
seqs = {"tok": [[1, 2], [3, 4], [5, 6], [7, 8, 9], [1, 1, 1], [2, 2, 2]]}
buckets = [[0, 1, 2], [3, 4, 5]]

w = torch.zeros(2, requires_grad=True)
trace = []
for epoch in range(2):
    for idx in ([0, 1, 2, 3], [4, 5, 6, 7]):
        x = torch.tensor([data["x"][i] for i in idx], device=device)
        y = torch.tensor([data["label"][i] for i in idx], device=device)
        f = torch.tensor([data["flag"][i] for i in idx], device=device)
        logits = x @ w
        if y.is_floating_point():
            loss = torch.nn.functional.binary_cross_entropy_with_logits(logits, y)
        else:
            loss = torch.nn.functional.binary_cross_entropy_with_logits(logits, y.float()) * 2
        loss.backward()
        with torch.no_grad():
            w -= 0.1 * w.grad
        w.grad = None
        trace.append((str(y.dtype), str(f.dtype), round(loss.item(), 5)))
    for b in buckets:
        toks = torch.tensor([seqs["tok"][i] for i in b], device=device)
        trace.append(tuple(toks.shape))
print(trace)
