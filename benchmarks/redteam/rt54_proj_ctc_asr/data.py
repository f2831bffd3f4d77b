"""Synthetic 'speech': each utterance is a label sequence rendered as noisy frames of varying length."""
import torch


def render(labels, gen, frames_per_label, dim):
    rows = []
    for lab in labels:
        reps = int(torch.randint(frames_per_label - 1, frames_per_label + 2, (1,), generator=gen))
        base = torch.zeros(dim)
        base[lab % dim] = 2.0
        for _ in range(reps):
            rows.append(base + 0.3 * torch.randn(dim, generator=gen))
    return torch.stack(rows)


def make_corpus(n, vocab, dim, gen):
    utts = []
    for _ in range(n):
        k = int(torch.randint(2, 5, (1,), generator=gen))
        labels = torch.randint(1, vocab, (k,), generator=gen).tolist()
        utts.append((render(labels, gen, 3, dim), labels))
    return utts


def collate(batch):
    """Pad frames; lengths stay Python ints / CPU tensors as ctc_loss and packing want them."""
    frames = [f for f, _ in batch]
    T = max(f.shape[0] for f in frames)
    x = torch.zeros(len(batch), T, frames[0].shape[1])
    in_lens = []
    targets = []
    tgt_lens = []
    for i, (f, labels) in enumerate(batch):
        x[i, :f.shape[0]] = f
        in_lens.append(f.shape[0])
        targets.extend(labels)
        tgt_lens.append(len(labels))
    return x, torch.tensor(in_lens), torch.tensor(targets), torch.tensor(tgt_lens)
