import torch


def make_scenes(n, size, seed):
    """Grey images with a bright square (class 1) and a dark bar (class 2) on background (class 0)."""
    gen = torch.Generator().manual_seed(seed)
    images = 0.1 * torch.randn(n, 1, size, size, generator=gen)
    masks = torch.zeros(n, size, size, dtype=torch.uint8)
    for k in range(n):
        r, c = torch.randint(0, size - 6, (2,), generator=gen).tolist()
        images[k, 0, r:r + 5, c:c + 5] += 1.0
        masks[k, r:r + 5, c:c + 5] = 1
        row = int(torch.randint(0, size, (1,), generator=gen))
        images[k, 0, row, :] -= 1.0
        masks[k, row, :] = 2
    return images, masks
