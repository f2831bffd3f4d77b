import math

import torch


def evaluate_ranking(model, train_dict, test_dict, n_items, device, k=10):
    model.eval()
    hits, ndcgs = [], []
    with torch.no_grad():
        for u in train_dict:
            scores = model.scores(torch.tensor([u], device=device)).squeeze(0)
            seen = torch.tensor(train_dict[u], device=device)  # paef: ok dict-as-list
            scores[seen] = -float("inf")
            topk = scores.topk(k).indices.cpu().tolist()
            target = test_dict[u]
            if target in topk:
                hits.append(1.0)
                ndcgs.append(1.0 / math.log2(topk.index(target) + 2))
            else:
                hits.append(0.0)
                ndcgs.append(0.0)
    return sum(hits) / len(hits), sum(ndcgs) / len(ndcgs)
