"""Losses for the embedding trainer."""
import torch
import torch.nn.functional as F


def batch_hard_triplet(emb, labels, margin=0.3):
    """For each anchor: its farthest positive and nearest negative in the batch."""
    total = emb.new_zeros(())
    for i in range(emb.shape[0]):
        dist = (emb - emb[i]).pow(2).sum(dim=1)
        same = labels == labels[i]
        hardest_pos = dist[same].max()
        hardest_neg = dist[labels != labels[i]].min()
        total = total + F.relu(hardest_pos - hardest_neg + margin)
    return total / emb.shape[0]
