"""Training triples with sampled corrupt entities, served head-batch and tail-batch in turn."""
import numpy as np
import torch
from torch.utils.data import Dataset


class TrainDataset(Dataset):
    def __init__(self, triples, nentity, negative_sample_size, mode, seed):
        self.triples = triples
        self.nentity = nentity
        self.negative_sample_size = negative_sample_size
        self.mode = mode
        self.rng = np.random.RandomState(seed)
        self.count = self.count_frequency(triples)

    def __len__(self):
        return len(self.triples)

    def __getitem__(self, idx):
        head, relation, tail = self.triples[idx]
        negative_sample = self.rng.randint(self.nentity, size=self.negative_sample_size)
        subsampling_weight = self.count[(head, relation)] + self.count[(tail, -relation - 1)]
        subsampling_weight = torch.sqrt(1 / torch.Tensor([subsampling_weight]))
        return (torch.LongTensor([head, relation, tail]), torch.from_numpy(negative_sample),
                subsampling_weight, self.mode)

    @staticmethod
    def count_frequency(triples, start=4):
        count = {}
        for head, relation, tail in triples:
            count[(head, relation)] = count.get((head, relation), start) + 1
            count[(tail, -relation - 1)] = count.get((tail, -relation - 1), start) + 1
        return count

    @staticmethod
    def collate_fn(data):
        positive_sample = torch.stack([_[0] for _ in data], dim=0)
        negative_sample = torch.stack([_[1] for _ in data], dim=0)
        subsample_weight = torch.cat([_[2] for _ in data], dim=0)
        mode = data[0][3]
        return positive_sample, negative_sample, subsample_weight, mode


class BidirectionalOneShotIterator(object):
    def __init__(self, dataloader_head, dataloader_tail):
        self.iterator_head = self.one_shot_iterator(dataloader_head)
        self.iterator_tail = self.one_shot_iterator(dataloader_tail)
        self.step = 0

    def __next__(self):
        self.step += 1
        if self.step % 2 == 0:
            data = next(self.iterator_head)
        else:
            data = next(self.iterator_tail)
        return data

    @staticmethod
    def one_shot_iterator(dataloader):
        while True:
            for data in dataloader:
                yield data
