"""A knowledge-graph embedding model whose training and test steps are static methods that
the driver calls through the model instance (`kge_model.train_step(kge_model, ...)`)."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class KGEModel(nn.Module):
    def __init__(self, model_name, nentity, nrelation, hidden_dim, gamma):
        super(KGEModel, self).__init__()
        self.model_name = model_name
        self.nentity = nentity
        self.hidden_dim = hidden_dim
        self.epsilon = 2.0
        self.gamma = nn.Parameter(torch.Tensor([gamma]), requires_grad=False)
        self.embedding_range = nn.Parameter(
            torch.Tensor([(self.gamma.item() + self.epsilon) / hidden_dim]), requires_grad=False
        )
        self.entity_embedding = nn.Parameter(torch.zeros(nentity, hidden_dim))
        nn.init.uniform_(self.entity_embedding, a=-self.embedding_range.item(), b=self.embedding_range.item())
        self.relation_embedding = nn.Parameter(torch.zeros(nrelation, hidden_dim))
        nn.init.uniform_(self.relation_embedding, a=-self.embedding_range.item(), b=self.embedding_range.item())

    def forward(self, sample, mode='single'):
        if mode == 'single':
            head = torch.index_select(self.entity_embedding, dim=0, index=sample[:, 0]).unsqueeze(1)
            relation = torch.index_select(self.relation_embedding, dim=0, index=sample[:, 1]).unsqueeze(1)
            tail = torch.index_select(self.entity_embedding, dim=0, index=sample[:, 2]).unsqueeze(1)
        elif mode == 'head-batch':
            tail_part, head_part = sample
            batch_size, negative_sample_size = head_part.size(0), head_part.size(1)
            head = torch.index_select(self.entity_embedding, dim=0, index=head_part.view(-1)).view(
                batch_size, negative_sample_size, -1)
            relation = torch.index_select(self.relation_embedding, dim=0, index=tail_part[:, 1]).unsqueeze(1)
            tail = torch.index_select(self.entity_embedding, dim=0, index=tail_part[:, 2]).unsqueeze(1)
        else:
            head_part, tail_part = sample
            batch_size, negative_sample_size = tail_part.size(0), tail_part.size(1)
            head = torch.index_select(self.entity_embedding, dim=0, index=head_part[:, 0]).unsqueeze(1)
            relation = torch.index_select(self.relation_embedding, dim=0, index=head_part[:, 1]).unsqueeze(1)
            tail = torch.index_select(self.entity_embedding, dim=0, index=tail_part.view(-1)).view(
                batch_size, negative_sample_size, -1)
        model_func = {
            'TransE': self.TransE,
            'pRotatE': self.pRotatE,
        }
        if self.model_name in model_func:
            score = model_func[self.model_name](head, relation, tail, mode)
        else:
            raise ValueError('model %s not supported' % self.model_name)
        return score

    def TransE(self, head, relation, tail, mode):
        if mode == 'head-batch':
            score = head + (relation - tail)
        else:
            score = (head + relation) - tail
        score = self.gamma.item() - torch.norm(score, p=1, dim=2)  # paef: expect host-sync
        return score

    def pRotatE(self, head, relation, tail, mode):
        pi = 3.14159262358979
        phase_head = head / (self.embedding_range.item() / pi)  # paef: expect host-sync
        phase_relation = relation / (self.embedding_range.item() / pi)  # paef: ok host-sync
        phase_tail = tail / (self.embedding_range.item() / pi)  # paef: ok host-sync
        score = torch.abs(torch.sin(phase_head + phase_relation - phase_tail))
        return self.gamma - score.sum(dim=2) * 0.5

    @staticmethod
    def train_step(model, optimizer, train_iterator, args):
        model.train()
        optimizer.zero_grad()
        positive_sample, negative_sample, subsampling_weight, mode = next(train_iterator)
        if args.cuda:
            positive_sample = positive_sample.cuda()
            negative_sample = negative_sample.cuda()
            subsampling_weight = subsampling_weight.cuda()
        negative_score = model((positive_sample, negative_sample), mode=mode)
        negative_score = F.logsigmoid(-negative_score).mean(dim=1)
        positive_score = model(positive_sample)
        positive_score = F.logsigmoid(positive_score).squeeze(dim=1)
        positive_sample_loss = -(subsampling_weight * positive_score).sum() / subsampling_weight.sum()
        negative_sample_loss = -(subsampling_weight * negative_score).sum() / subsampling_weight.sum()
        loss = (positive_sample_loss + negative_sample_loss) / 2
        loss.backward()
        optimizer.step()
        log = {
            'positive_sample_loss': positive_sample_loss.item(),  # paef: expect host-sync
            'negative_sample_loss': negative_sample_loss.item(),  # paef: expect host-sync
            'loss': loss.item(),  # paef: expect host-sync
        }
        return log

    @staticmethod
    def test_step(model, test_triples, args):
        model.eval()
        hits = 0
        with torch.no_grad():
            for head, relation, tail in test_triples:
                sample = torch.LongTensor([[head, relation, tail]])
                if args.cuda:
                    sample = sample.cuda()
                score = model(sample)
                hits += int(score[0, 0] > 0)  # paef: ok host-sync
        return {'HITS@pos': hits / len(test_triples)}
