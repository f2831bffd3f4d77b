"""Public check 43, p03: BiLSTM-CRF named-entity recognition (character level, People's Daily tags), CPU only.

Source: https://github.com/Alic-yuan/nlp-beginner-finish  task4/config.py @ ff513e66, task4/utils.py @ ff513e66,
task4/model/LSTM.py @ ff513e66, task4/model/LSTM_CRF.py @ ff513e66, task4/main.py @ 091bd1d7 (the files in this
order; the local imports `from config import opt`, `from model.LSTM import NERLSTM`, `from model.LSTM_CRF import
NERLSTM_CRF`, `from utils import get_tags, format_result` dropped since the files are one here).

Changes to make it run on the CPU in seconds:
- `torchcrf` (pytorch-crf, not installed) -> a stand-in `CRF` below with the library's interface and algorithm
  (`CRF(num_tags)`, sequence-first; `forward` returns the summed log-likelihood; `decode` the Viterbi paths as lists).
- `sklearn.metrics` (not installed) -> stand-ins for `precision_score`, `recall_score`, `f1_score` (macro) and
  `classification_report` (per-label counts and F1).
- the data pickle (`./renmindata.pkl`, made by the repository's `data/data_renmin_word.py`) -> written below with
  seeded synthetic sentences (64 train / 32 valid / 32 test, length 12, 40 characters, 7 tags, padding 0); the
  program runs in a temporary directory (it writes `./model/params.pkl` every epoch).
- seeds (`numpy`, `torch`) set below.
- config: `max_epoch = 10` -> 2.
- a `checksum` print at the end.
The source's lines are otherwise unchanged (the program never moves anything to a device; `num_workers = 4` kept).
"""
# ---- stand-ins: torchcrf.CRF, sklearn.metrics, the data pickle in a temporary directory; seeds ----
import importlib.machinery as _machinery
import os as _os
import pickle as _pickle
import sys as _sys
import tempfile as _tempfile
import types as _types
import numpy as _np
import torch as _torch


def _module(name, **attrs):
    mod = _types.ModuleType(name)
    mod.__spec__ = _machinery.ModuleSpec(name, None)
    mod.__dict__.update(attrs)
    _sys.modules[name] = mod
    return mod


class _CRF(_torch.nn.Module):
    """pytorch-crf's linear-chain CRF (sequence first, no mask): log-likelihood and Viterbi decoding."""
    def __init__(self, num_tags, batch_first=False):
        super().__init__()
        self.num_tags = num_tags
        self.start_transitions = _torch.nn.Parameter(_torch.empty(num_tags).uniform_(-0.1, 0.1))
        self.end_transitions = _torch.nn.Parameter(_torch.empty(num_tags).uniform_(-0.1, 0.1))
        self.transitions = _torch.nn.Parameter(_torch.empty(num_tags, num_tags).uniform_(-0.1, 0.1))

    def forward(self, emissions, tags, reduction="sum"):
        seq_len, batch = tags.shape
        ar = _torch.arange(batch)
        score = self.start_transitions[tags[0]] + emissions[0, ar, tags[0]]
        for i in range(1, seq_len):
            score = score + self.transitions[tags[i - 1], tags[i]] + emissions[i, ar, tags[i]]
        score = score + self.end_transitions[tags[-1]]
        alpha = self.start_transitions + emissions[0]
        for i in range(1, seq_len):
            alpha = _torch.logsumexp(alpha.unsqueeze(2) + self.transitions + emissions[i].unsqueeze(1), dim=1)
        norm = _torch.logsumexp(alpha + self.end_transitions, dim=1)
        return (score - norm).sum()

    def decode(self, emissions):
        seq_len, batch, _ = emissions.shape
        score = self.start_transitions + emissions[0]
        history = []
        for i in range(1, seq_len):
            best, idx = (score.unsqueeze(2) + self.transitions + emissions[i].unsqueeze(1)).max(dim=1)
            score = best
            history.append(idx)
        score = score + self.end_transitions
        paths = []
        for b in range(batch):
            last = int(score[b].argmax())
            path = [last]
            for idx in reversed(history):
                last = int(idx[b][last])
                path.append(last)
            paths.append(path[::-1])
        return paths


def _prf(labels, preds):
    out = {}
    for c in sorted(set(labels) | set(preds)):
        tp = sum(1 for l, p in zip(labels, preds) if l == c and p == c)
        fp = sum(1 for l, p in zip(labels, preds) if l != c and p == c)
        fn = sum(1 for l, p in zip(labels, preds) if l == c and p != c)
        pr = tp / (tp + fp) if tp + fp else 0.0
        rc = tp / (tp + fn) if tp + fn else 0.0
        out[c] = (pr, rc, 2 * pr * rc / (pr + rc) if pr + rc else 0.0, tp + fn)
    return out


_module("sklearn")
_module("sklearn.metrics",
        precision_score=lambda y, p, average=None: float(_np.mean([v[0] for v in _prf(y, p).values()])),
        recall_score=lambda y, p, average=None: float(_np.mean([v[1] for v in _prf(y, p).values()])),
        f1_score=lambda y, p, average=None: float(_np.mean([v[2] for v in _prf(y, p).values()])),
        classification_report=lambda y, p: "\n".join(
            f"{c} {v[0]:.4f} {v[1]:.4f} {v[2]:.4f} {v[3]}" for c, v in _prf(y, p).items()))
_module("torchcrf", CRF=_CRF)

_rng = _np.random.RandomState(0)
_workdir = _tempfile.mkdtemp(prefix="pub43_p03_")
_os.makedirs(_os.path.join(_workdir, "model"))
_os.chdir(_workdir)
with open("renmindata.pkl", "wb") as _f:
    _tags = {"O": 1, "B_ns": 2, "M_ns": 3, "E_ns": 4, "B_nt": 5, "E_nt": 6, "<pad>": 0}
    _pickle.dump({chr(0x4e00 + i): i + 1 for i in range(40)}, _f)
    _pickle.dump(_tags, _f)
    for _n in (64, 32, 32):
        _x = _rng.randint(1, 41, size=(_n, 12))
        _y = _rng.randint(1, 7, size=(_n, 12))
        _x[:, 9:] = 0
        _y[:, 9:] = 0
        _pickle.dump(_x, _f)
        _pickle.dump(_y, _f)
_np.random.seed(0)
_torch.manual_seed(0)
# ---- end of stand-ins ----

# ===== config.py =====
# coding:utf8
import warnings
import torch as t

class DefaultConfig(object):
    model = 'NERLSTM_CRF'  # 使用的模型，名字必须与models/__init__.py中的名字一致

    pickle_path = './renmindata.pkl'  # 训练集存放路径
    load_model_path = None  # 加载预训练的模型的路径，为None代表不加载

    batch_size = 32  # batch size
    num_workers = 4  # how many workers for loading data
    print_freq = 20  # print info every N batch

    max_epoch = 2
    lr = 0.001  # initial learning rate
    lr_decay = 0.5  # when val_loss increase, lr = lr*lr_decay
    weight_decay = 1e-5  # 损失函数

    embedding_dim = 100
    hidden_dim = 200
    dropout = 0.2


    def _parse(self, kwargs):
        """
        根据字典kwargs 更新 config参数
        """
        for k, v in kwargs.items():
            if not hasattr(self, k):
                warnings.warn("Warning: opt has not attribut %s" % k)
            setattr(self, k, v)
        
        opt.device =t.device('cuda') if opt.use_gpu else t.device('cpu')


        print('user config:')
        for k, v in self.__class__.__dict__.items():
            if not k.startswith('_'):
                print(k, getattr(self, k))

opt = DefaultConfig()

# ===== utils.py =====
# -*- coding:utf-8 -*-

def format_result(result, text, tag): 
    entities = [] 
    for i in result: 
        begin, end = i 
        entities.append({ 
            "start":begin, 
            "stop":end + 1, 
            "word":text[begin:end+1],
            "type":tag
        }) 
    return entities

def get_tags(path, tag, tag_map):
    begin_tag = tag_map.get("B_" + tag)
    mid_tag = tag_map.get("M_" + tag)
    end_tag = tag_map.get("E_" + tag)
    # single_tag = tag_map.get("S")
    o_tag = tag_map.get("O")
    begin = -1
    end = 0
    tags = []
    last_tag = 0
    for index, tag in enumerate(path):
        if tag == begin_tag and index == 0:
            begin = 0
        elif tag == begin_tag:
            begin = index
        elif tag == end_tag and last_tag in [mid_tag, begin_tag] and begin > -1:
            end = index
            tags.append([begin, end])
        elif tag == o_tag:
            begin = -1
        last_tag = tag
    return tags

def f1_score(tar_path, pre_path, tag, tag_map):
    origin = 0.
    found = 0.
    right = 0.
    for fetch in zip(tar_path, pre_path):
        tar, pre = fetch
        # print(tar)
        # print(pre)
        tar_tags = get_tags(tar, tag, tag_map)
        # print(tar_tags)
        pre_tags = get_tags(pre, tag, tag_map)
        # print(pre_tags)

        origin += len(tar_tags)
        found += len(pre_tags)

        for p_tag in pre_tags:
            if p_tag in tar_tags:
                right += 1

    recall = 0. if origin == 0 else (right / origin)
    precision = 0. if found == 0 else (right / found)
    f1 = 0. if recall+precision == 0 else (2*precision*recall)/(precision + recall)
    print("\t{}\trecall {:.2f}\tprecision {:.2f}\tf1 {:.2f}".format(tag, recall, precision, f1))
    return recall, precision, f1

# ===== model/LSTM.py =====
import torch
import torch.nn as nn
import torch.optim as optim

class NERLSTM(nn.Module):
    def __init__(self, embedding_dim, hidden_dim, dropout, word2id, tag2id):
        super(NERLSTM, self).__init__()

        self.embedding_dim = embedding_dim
        self.hidden_dim = hidden_dim
        self.vocab_size = len(word2id) + 1
        self.tag_to_ix = tag2id
        self.tagset_size = len(tag2id)

        self.word_embeds = nn.Embedding(self.vocab_size, self.embedding_dim)
        self.dropout = nn.Dropout(dropout)
        self.lstm = nn.LSTM(self.embedding_dim, self.hidden_dim // 2, num_layers=1, bidirectional=True, batch_first=True)
        self.hidden2tag = nn.Linear(self.hidden_dim, self.tagset_size)

    def forward(self, x):
      batch_size = x.size(0)
      sent_len = x.size(1)
      embedding = self.word_embeds(x)
      outputs, hidden = self.lstm(embedding)
      outputs = self.dropout(outputs)
      outputs = self.hidden2tag(outputs)
      return outputs

# ===== model/LSTM_CRF.py =====
import torch
import torch.nn as nn
import torch.optim as optim
from torchcrf import CRF

class NERLSTM_CRF(nn.Module):
    def __init__(self, embedding_dim, hidden_dim, dropout, word2id, tag2id):
        super(NERLSTM_CRF, self).__init__()

        self.embedding_dim = embedding_dim
        self.hidden_dim = hidden_dim
        self.vocab_size = len(word2id) + 1
        self.tag_to_ix = tag2id
        self.tagset_size = len(tag2id)

        self.word_embeds = nn.Embedding(self.vocab_size, self.embedding_dim)
        self.dropout = nn.Dropout(dropout)

        #CRF
        self.lstm = nn.LSTM(self.embedding_dim, self.hidden_dim // 2, num_layers=1, bidirectional=True, batch_first=False)

        self.hidden2tag = nn.Linear(self.hidden_dim, self.tagset_size)
        self.crf = CRF(self.tagset_size)

    def forward(self, x):
      #CRF
      x = x.transpose(0,1)
      batch_size = x.size(1)
      sent_len = x.size(0)
      
      embedding = self.word_embeds(x)
      outputs, hidden = self.lstm(embedding)
      outputs = self.dropout(outputs)
      outputs = self.hidden2tag(outputs)
      #CRF
      outputs = self.crf.decode(outputs)
      return outputs

    def log_likelihood(self, x, tags):
        x = x.transpose(0,1)
        batch_size = x.size(1)
        sent_len = x.size(0)
        tags = tags.transpose(0,1)
        embedding = self.word_embeds(x)
        outputs, hidden = self.lstm(embedding)
        outputs = self.dropout(outputs)
        outputs = self.hidden2tag(outputs)
        return - self.crf(outputs, tags)

# ===== main.py =====
import pickle
import pdb
import numpy as np 
from sklearn.metrics import precision_score, recall_score, f1_score, classification_report
import torch
from torch.utils.data import Dataset,DataLoader
import torch.nn as nn
import torch.optim as optim


with open(opt.pickle_path, 'rb') as inp:
        word2id = pickle.load(inp)
        # id2word = pickle.load(inp)
        tag2id = pickle.load(inp)
        # id2tag = pickle.load(inp)
        x_train = pickle.load(inp)
        y_train = pickle.load(inp)
        x_test = pickle.load(inp)
        y_test = pickle.load(inp)
        x_valid = pickle.load(inp)
        y_valid = pickle.load(inp)
print("train len:",len(x_train))
print("test len:",len(x_test))
print("valid len", len(x_valid))
print(word2id)
print(tag2id)


class NERDataset(Dataset):
    def __init__(self, X, Y, *args, **kwargs):
        self.data = [{'x':X[i],'y':Y[i]} for i in range(X.shape[0])]

    def __getitem__(self, index):
        return self.data[index]

    def __len__(self):
        return len(self.data)

train_dataset = NERDataset(x_train, y_train)
valid_dataset = NERDataset(x_valid, y_valid)
test_dataset = NERDataset(x_test, y_test)

train_dataloader = DataLoader(train_dataset, batch_size=opt.batch_size, shuffle=True, num_workers=opt.num_workers)
valid_dataloader = DataLoader(valid_dataset, batch_size=opt.batch_size, shuffle=True, num_workers=opt.num_workers)
test_dataloader = DataLoader(test_dataset, batch_size=opt.batch_size, shuffle=True, num_workers=opt.num_workers)


models = {'NERLSTM': NERLSTM,
          'NERLSTM_CRF': NERLSTM_CRF}

model = models[opt.model](opt.embedding_dim, opt.hidden_dim, opt.dropout, word2id, tag2id)
criterion = nn.CrossEntropyLoss(ignore_index=0)
optimizer = optim.Adam(model.parameters(), lr=opt.lr, weight_decay=opt.weight_decay)




class ChineseNER(object):
    def train(self):
        for epoch in range(opt.max_epoch):
            model.train()
            for index, batch in enumerate(train_dataloader):
                optimizer.zero_grad()
                X = batch['x']
                y = batch['y']
                #CRF
                loss = model.log_likelihood(X,y)
                loss.backward()
                #CRF
                torch.nn.utils.clip_grad_norm_(parameters=model.parameters(), max_norm=10)

                optimizer.step()
                if index % 200 == 0:
                    print('epoch:%04d,------------loss:%f'%(epoch,loss.item()))

            aver_loss = 0
            preds, labels = [], []
            for index, batch in enumerate(valid_dataloader):
                model.eval()
                val_x,val_y = batch['x'], batch['y']
                predict = model(val_x)
                #CRF
                loss = model.log_likelihood(val_x, val_y)
                aver_loss += loss.item()
                # 统计非0的，也就是真实标签的长度
                leng = []
                for i in val_y.cpu():
                    tmp = []
                    for j in i:
                        if j.item()>0:
                            tmp.append(j.item())
                    leng.append(tmp)

                for index, i in enumerate(predict):
                    preds += i[:len(leng[index])]

                for index, i in enumerate(val_y.tolist()):
                    labels += i[:len(leng[index])]
            aver_loss /= (len(valid_dataloader) * 64)
            precision = precision_score(labels, preds, average='macro')
            recall = recall_score(labels, preds, average='macro')
            f1 = f1_score(labels, preds, average='macro')
            report = classification_report(labels, preds)
            print(report)
            torch.save(model.state_dict(), './model/params.pkl')

    def predict(self, tag, input_str=""):
        model.load_state_dict(torch.load("./model/params.pkl"))
        if not input_str:
            input_str = input("请输入文本: ")
        input_vec = [word2id.get(i, 0) for i in input_str]
        # convert to tensor
        sentences = torch.tensor(input_vec).view(1, -1)
        paths = model(sentences)

        entities = []
        tags = get_tags(paths[0], tag, tag2id)
        entities += format_result(tags, input_str, tag)
        print(entities)

if __name__ == '__main__':
    cn = ChineseNER()
    cn.train()
    # cn.predict('ns')
    print("checksum", round(sum(float(p.detach().double().sum()) for p in model.parameters()), 6))
