import torch


def buffers(n):
    for i in range(n):
        row = torch.zeros(3)
        row[i % 3] = float(i)
        yield row
