# corpus: runnable
"""Driver of the knowledge-graph embedding project: builds the model of model.py and its
bidirectional training iterator, then calls the model's static `train_step` through the
instance once per step, averaging the host-side logs it returns every `log_steps` steps."""
import random

import torch
from torch.utils.data import DataLoader

from dataloader import BidirectionalOneShotIterator, TrainDataset
from model import KGEModel


class Args:
    cuda = torch.cuda.is_available()
    model = 'TransE'
    hidden_dim = 8
    gamma = 12.0
    learning_rate = 0.01
    batch_size = 16
    negative_sample_size = 4
    max_steps = 40
    log_steps = 10
    valid_steps = 20


def log_metrics(mode, step, metrics):
    for metric in metrics:
        print('%s %s at step %d: %f' % (mode, metric, step, metrics[metric]))


def main(args):
    torch.manual_seed(0)
    rnd = random.Random(0)
    nentity, nrelation = 30, 4
    train_triples = [(rnd.randrange(nentity), rnd.randrange(nrelation), rnd.randrange(nentity)) for _ in range(96)]
    valid_triples = train_triples[:8]
    kge_model = KGEModel(model_name=args.model, nentity=nentity, nrelation=nrelation,
                         hidden_dim=args.hidden_dim, gamma=args.gamma)
    if args.cuda:
        kge_model = kge_model.cuda()
    train_dataloader_head = DataLoader(
        TrainDataset(train_triples, nentity, args.negative_sample_size, 'head-batch', 1),
        batch_size=args.batch_size, shuffle=False, collate_fn=TrainDataset.collate_fn)
    train_dataloader_tail = DataLoader(
        TrainDataset(train_triples, nentity, args.negative_sample_size, 'tail-batch', 2),
        batch_size=args.batch_size, shuffle=False, collate_fn=TrainDataset.collate_fn)
    train_iterator = BidirectionalOneShotIterator(train_dataloader_head, train_dataloader_tail)
    optimizer = torch.optim.Adam(filter(lambda p: p.requires_grad, kge_model.parameters()), lr=args.learning_rate)
    training_logs = []
    for step in range(0, args.max_steps):
        log = kge_model.train_step(kge_model, optimizer, train_iterator, args)
        training_logs.append(log)
        if step % args.log_steps == 0:
            metrics = {}
            for metric in training_logs[0].keys():
                metrics[metric] = sum([log[metric] for log in training_logs]) / len(training_logs)
            log_metrics('Training average', step, metrics)
            training_logs = []
        if step % args.valid_steps == 0:
            metrics = kge_model.test_step(kge_model, valid_triples, args)
            log_metrics('Valid', step, metrics)


if __name__ == '__main__':
    main(Args())
