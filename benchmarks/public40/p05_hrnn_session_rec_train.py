# Public check 40, p05: HRNN session-based recommender (user GRU + session GRU over one-hot items), fit and
# leave-one-out validation with nDCG / Recall@k.
# Source: https://github.com/cksruf91/recomm-hrnn-pytorch model/hrnn4recom.py @ 1e13f0a7 (HRNN),
#   model/model_util.py @ 1e13f0a7 (train_progressbar, history_logging, TorchInterfaceRecomm.fit),
#   train_hrnn.py @ 1e13f0a7 (the driver); inlined in that order.
# Changes to make it run on the CPU in seconds:
# - common/data_iterator.py (DataLoader, NegativeSampler, TestIterator: pickled MovieLens sessions) and
#   model/loss_functions.py (TOP1Loss), model/metrics.py (nDCG, RecallAtK), model/callbacks.py, config,
#   pandas, pickle, argparse, mlflow: not stored / not installed -> stand-ins: 6 parallel sessions streams of
#   50 items each ([input_item, output_item, user_mask, session_mask] batches of 6 on `device`), a test
#   iterator of 4 users (context batches of 1, 20 sampled candidate items), TOP1 loss as in the paper,
#   nDCG and Recall@k over the lists; no callbacks (the source's checkpoint and MLflow logger).
# - `time` -> a stand-in clock (the source prints seconds); epochs 10 -> 2, hidden 100 -> 16, items 40.
# - _validation: `loss = self._compute_loss(...)` -> `loss, _, _ = self._compute_loss(...)` (the method returns a
#   triple; the source's next line `loss.item()` raises AttributeError as published).
# - the seed; a checksum print at the end.
# HRNN, fit, the progress bar and the driver's lines are the source's.
import sys
from abc import abstractmethod, ABCMeta
from typing import Tuple, Iterable, Callable

import numpy as np
import torch
import torch.nn as nn
from torch import nn, Tensor
from torch.nn.functional import one_hot
from torch.optim import Adagrad


# ---- stand-ins: time, data iterators, loss, metrics ----
class time:
    _now = 0.0

    @classmethod
    def time(cls):
        cls._now += 0.25
        return cls._now


class DataLoader:
    def __init__(self, n_streams, length, item_size, device):
        g = torch.Generator().manual_seed(1)
        self.items = torch.randint(1, item_size, (length + 1, n_streams), generator=g)
        self.session_end = (torch.rand(length, n_streams, generator=g) < 0.2).float()
        self.user_end = (torch.rand(length, n_streams, generator=g) < 0.05).float()
        self.device = device

    def __len__(self):
        return self.items.shape[0] - 1

    def __iter__(self):
        for s in range(len(self)):
            yield [self.items[s].to(self.device), self.items[s + 1].to(self.device),
                   self.user_end[s][:, None].to(self.device), self.session_end[s][:, None].to(self.device)]


class TestIterator:
    def __init__(self, n_users, item_size):
        g = torch.Generator().manual_seed(2)
        self.users = []
        for _ in range(n_users):
            ctx = torch.randint(1, item_size, (6,), generator=g)
            samples = torch.randperm(item_size - 1, generator=g)[:20] + 1
            item = samples[0:1]
            context = [[ctx[k:k + 1], ctx[k + 1:k + 2], torch.zeros(1, 1), torch.zeros(1, 1)] for k in range(5)]
            self.users.append((item, samples, ctx[5:6], context))

    def __len__(self):
        return len(self.users)

    def __iter__(self):
        return iter(self.users)


class TOP1Loss(nn.Module):
    def forward(self, logit, target):
        pos = logit.gather(1, target[:, None])
        return (torch.sigmoid(logit - pos) + torch.sigmoid(logit ** 2)).mean()


class nDCG:
    def __call__(self, output, label):
        vals = [1.0 / np.log2(list(o).index(l[0]) + 2) if l[0] in o else 0.0 for o, l in zip(output, label)]
        return float(np.mean(vals))

    def __str__(self):
        return 'nDCG'


class RecallAtK:
    def __call__(self, output, label):
        return float(np.mean([1.0 if l[0] in o else 0.0 for o, l in zip(output, label)]))

    def __str__(self):
        return 'recall'


# ---- source: model/model_util.py ----
def train_progressbar(total: int, i: int, bar_length: int = 50, prefix: str = '', suffix: str = '') -> None:
    """progressbar
    """
    dot_num = int((i + 1) / total * bar_length)
    dot = '■' * dot_num
    empty = ' ' * (bar_length - dot_num)
    sys.stdout.write(f'\r {prefix} [{dot}{empty}] {i / total * 100:3.2f}% {suffix}')


def history_logging(history, metrics, output, label, mode='train'):
    for func in metrics:
        history[f'{mode}_{str(func)}'] = func(output, label)

    metrics_name = [k for k in history.keys() if mode in k]
    result = ""
    for m in metrics_name:
        if mode == 'train':
            result += f"  {m.replace('train_', '')}: {history[m]:3.3f}"
        else:
            result += f"  {m}: {history[m]:3.3f}"

    sys.stdout.write(result)
    return history


class TorchInterfaceRecomm(nn.Module, metaclass=ABCMeta):

    def __init__(self):
        super().__init__()

    @abstractmethod
    def _compute_loss(self, data: Iterable, loss_func: Callable, optimizer=None, scheduler=None, train=True):
        pass

    @abstractmethod
    def _validation(self, data: Iterable, loss_func: Callable):
        pass

    def save(self, file):
        """save model"""
        torch.save(self.state_dict(), file)

    def load(self, file, **kwargs):
        """load model"""
        self.load_state_dict(torch.load(file, **kwargs))

    def fit(self, epoch: 10, train_dataloader, test_dataloader, loss_func=None, optimizer=None, scheduler=None,
            callback=None, metrics=None, sample=1., last_epoch=0):
        if callback is None:
            callback = []
        if metrics is None:
            metrics = []
        self.zero_grad()
        total_step = int(len(train_dataloader) * sample)
        history = {}

        for e in range(epoch):
            # ------ epoch start ------
            e += last_epoch
            self.train()

            start_epoch_time = time.time()
            train_loss = 0
            # output, label = [], []

            for step, data in enumerate(train_dataloader):
                # ------ step start ------
                if ((step + 1) % 50 == 0) | (step + 1 >= total_step):
                    train_progressbar(
                        total_step, step + 1, bar_length=30,
                        prefix=f'train {e + 1:03d}/{epoch} epoch', suffix=f'{time.time() - start_epoch_time:0.2f} sec '
                    )

                loss, y, y_hat = self._compute_loss(data, loss_func, optimizer, scheduler, train=True)
                train_loss += loss.item()
                # output.extend(y_hat)
                # label.extend(y)

                if step >= total_step:
                    break
                # ------ step end ------

            history['epoch'] = e + 1
            history['time'] = np.round(time.time() - start_epoch_time, 2)

            history['train_loss'] = train_loss / total_step
            sys.stdout.write(f"loss : {history['train_loss']:3.3f}")

            epoch_val_loss, output, label = self._validation(test_dataloader, loss_func)
            history['val_loss'] = epoch_val_loss

            history = history_logging(history, metrics, output, label, mode='val')
            print(' Done')

            for func in callback:
                func(self, history)
            # ------ epoch end ------


# ---- source: model/hrnn4recom.py ----
class HRNN(TorchInterfaceRecomm):

    def __init__(self, hidden_size: int, item_size: int, dropout: float = 0.5, device: torch.device = None, k: int = 5):
        """HRNN(Hierarchical Recurrent Neural Networks)
        Personalizing Session-based Recommendations with Hierarchical Recurrent Neural Networks
        paper : https://arxiv.org/pdf/1706.04148.pdf
        """
        super().__init__()
        self.k = k
        self.hidden_size = hidden_size
        self.item_size = item_size
        self.dropout_rate = dropout
        self.device = device

        self.user_gru = nn.GRUCell(self.hidden_size, self.hidden_size)
        self.user_dropout = nn.Dropout(self.dropout_rate)

        self.user_2_session = nn.Sequential(
            nn.Linear(self.hidden_size, self.hidden_size),
            nn.Tanh()
        )
        self.session_gru = nn.GRUCell(self.item_size, self.hidden_size)
        self.session_dropout = nn.Dropout(self.dropout_rate)

        self.output_layer = nn.Sequential(
            nn.Linear(self.hidden_size, self.item_size),
            nn.Tanh()
        )

        self.user_repr = None
        self.session_repr = None

        self.to(device=self.device)

    def forward(self, input_item: Tensor, user_mask: Tensor, session_mask: Tensor, user_repr: Tensor,
                session_repr: Tensor) -> Tuple[Tensor, Tensor, Tensor]:
        item_vec = one_hot(input_item, self.item_size).float()

        # {the user-level GRU takes as input the session-level representation}
        user_repr_update = self.user_gru(session_repr, user_repr)
        user_repr_update = self.user_dropout(user_repr_update)
        # update user-representation only when session end
        user_repr = (user_repr_update * session_mask) + (user_repr * (1 - session_mask))
        user_repr = user_repr * (1 - user_mask)  # reset user_repr for new user

        session_repr_update = self.user_2_session(user_repr)

        # when new session start user-representation effect session init state
        session_repr = (session_repr_update * session_mask) + (session_repr * (1 - session_mask))

        # reset session representation for new user
        session_repr = session_repr * (1 - user_mask)

        session_repr = self.session_gru(item_vec, session_repr)
        session_repr = self.session_dropout(session_repr)
        x = self.output_layer(session_repr)

        return x, user_repr, session_repr

    def _compute_loss(self, data: list, loss_func, optimizer=None, scheduler=None, train=True) -> Tuple[
        Tensor, list, list]:
        input_item, output_item, user_mask, session_mask = data

        if self.user_repr is None:
            self.user_repr = torch.zeros(input_item.shape[0], self.hidden_size, requires_grad=False,
                                         device=self.device)  # batch size, hidden size

        if self.session_repr is None:
            self.session_repr = torch.zeros(input_item.shape[0], self.hidden_size, requires_grad=False,
                                            device=self.device)  # batch size, hidden size

        output, user_repr, session_repr = self.forward(
            input_item, user_mask, session_mask, self.user_repr, self.session_repr
        )
        self.user_repr = user_repr.detach()
        self.session_repr = session_repr.detach()

        loss = loss_func(output, output_item)

        if train:
            loss.backward()
            torch.nn.utils.clip_grad_norm_(self.parameters(), 1.0)
            optimizer.step()

            if scheduler is not None:
                scheduler.step()  # Update learning rate schedule
            self.zero_grad()

        _, indices = torch.topk(output, self.k, dim=-1)
        y_hat = indices.cpu().tolist()
        y = output_item.cpu().tolist()
        y = y[:len(y_hat)]  # drop negative sample

        return loss, y, y_hat

    def _validation(self, test_iterator: Iterable, loss_func: Callable) -> tuple[float, list[list], list[list]]:

        self.eval()
        total_step = len(test_iterator)
        val_loss = 0
        output, label = [], []

        with torch.no_grad():
            for step, (item, samples, last_item, iterator) in enumerate(test_iterator):

                self.user_repr = None
                self.session_repr = None

                for data in iterator:
                    # user_repr과 session_repr 업데이트
                    loss, _, _ = self._compute_loss(data, loss_func, train=False)

                val_loss += loss.item()
                x, _, _ = self.forward(
                    last_item, torch.tensor([[0.]]), torch.tensor([[1.]]), self.user_repr, self.session_repr
                )
                x = x[0, samples]

                _, indices = torch.topk(x, k=self.k)
                output.append(samples[indices].cpu().numpy())
                label.append([item.cpu().item()])  # positive item

        val_loss = val_loss / total_step
        return val_loss, output, label


# ---- source: train_hrnn.py (argparse, pickle, pandas, callbacks -> the stand-ins above) ----
if __name__ == '__main__':
    torch.manual_seed(0)
    device = torch.device('cuda') if torch.cuda.is_available() else torch.device('cpu')

    model_params = {
        'hiddenUnits': 16,  # 500
        'negativeSampleSize': 0,
        'learningRate': 0.1,
        'loss': 'TOP1Loss',
        'optimizer': 'Adagrad',
        'hiddenSize': 16,
        'k': 5, 'dropout': 0.2,
        'batchSize': 6
    }

    print('loading data...')
    item_size = 40
    model_params['itemSize'] = item_size

    train_dataloader = DataLoader(model_params['batchSize'], 50, item_size, device=device)
    test_iterator = TestIterator(4, item_size)

    hrnn = HRNN(
        model_params['hiddenUnits'], item_size, device=device, k=model_params['k'],
        dropout=model_params['dropout']
    )
    loss_func = TOP1Loss()
    optimizer = Adagrad(hrnn.parameters(), lr=model_params['learningRate'], eps=0.00001, weight_decay=0.0)

    print(f"device : {device}")

    metrics = [nDCG(), RecallAtK()]
    callbacks = []

    hrnn.fit(
        2, train_dataloader, test_iterator, loss_func=loss_func, optimizer=optimizer,
        metrics=metrics, callback=callbacks, sample=1.
    )
    print(f"checksum {sum(float(p.detach().double().sum()) for p in hrnn.parameters()):.6f}")
