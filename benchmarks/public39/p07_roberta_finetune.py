# Public check 39, p07: RoBERTa sequence-classification fine-tuning loop written by hand (src/models/model.py).
# Source: https://github.com/OlineStaerke/Ml_Ops_Project src/models/model.py @ 24142bcc
# Changes to make it run on the CPU in seconds:
# - `transformers` (not installed, and roberta-base not fetched) replaced by stand-ins:
#   `AutoModelForSequenceClassification.from_pretrained` builds a small embedding + mean-pool +
#   linear classifier that returns `(loss, logits)` like the source's model with labels; `AdamW` is
#   torch.optim.AdamW. `tqdm` (not installed) replaced by a pass-through stand-in. Trailing blanks
#   of the source's lines dropped.
# - a driver replaces train_model.py (`torch.load` of preprocessed loaders not available): a
#   DataLoader of 48 seeded random (input_ids, attention_mask, label) triples, batch 8, 2 epochs,
#   lr 1e-3; it prints the returned losses and a checksum.
import torch
import torch.nn as nn
import torch.nn.functional as F


# ---- stand-ins for transformers / tqdm ----
class _TinyClassifier(nn.Module):
    def __init__(self, vocab=100, dim=16, num_labels=2):
        super().__init__()
        self.emb = nn.Embedding(vocab, dim)
        self.head = nn.Linear(dim, num_labels)

    def forward(self, input_ids, token_type_ids=None, attention_mask=None, labels=None):
        h = self.emb(input_ids) * attention_mask.unsqueeze(-1)
        logits = self.head(h.sum(1) / attention_mask.sum(1, keepdim=True))
        if labels is None:
            return (logits,)
        return (F.cross_entropy(logits, labels), logits)


class AutoModelForSequenceClassification:
    @staticmethod
    def from_pretrained(name):
        return _TinyClassifier()


def AdamW(params, lr, eps):
    return torch.optim.AdamW(params, lr=lr, eps=eps)


def tqdm(iterable, **kwargs):
    return iterable
# ---- end of stand-ins ----


import torch
import random
from torch.utils.data import TensorDataset, DataLoader, RandomSampler, SequentialSampler
import numpy as np


class myModel():
    # Use a GPU if you have one available (Runtime -> Change runtime type -> GPU)
    #device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    def __init__(self,
                    epochs = 5,
                    lr = 1e-5,
                    grad_acc_steps = 1,
                    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
                ):
        # Set seeds for reproducibility
        random.seed(26)
        np.random.seed(26)
        torch.manual_seed(26)

        self.epochs = epochs
        self.lr = lr
        self.grad_acc_steps = grad_acc_steps
        self.model = AutoModelForSequenceClassification.from_pretrained("roberta-base")
        self.optimizer = AdamW(self.model.parameters(), lr=self.lr, eps=1e-8)
        self.device = device
        self.model.to(self.device) # Send the model to the GPU if we have one


    def train(self, train_dataloader):

        train_loss_values = []
        dev_acc_values = []

        for _ in tqdm(range(self.epochs), desc="Epoch"):

            # Training
            epoch_train_loss = 0 # Cumulative loss
            self.model.train()
            self.model.zero_grad()

            # tqdm is a Python library that allows you to output a smart progress bar by wrapping around any iterable
            # leave ensures one continuous progress bar across all loops
            for step, batch in tqdm(enumerate(train_dataloader),leave=False,total=len(train_dataloader)):

                input_ids = batch[0].to(self.device)
                attention_masks = batch[1].to(self.device)
                labels = batch[2].to(self.device)

                outputs = self.model(input_ids, token_type_ids=None, attention_mask=attention_masks, labels=labels)

                loss = outputs[0]
                loss = loss / self.grad_acc_steps
                epoch_train_loss += loss.item()

                loss.backward()
                # wandb.log({"loss:": loss})

                if (step+1) % self.grad_acc_steps == 0: # Gradient accumulation is over
                    torch.nn.utils.clip_grad_norm_(self.model.parameters(), 1.0) # Clipping gradients
                    self.optimizer.step()
                    self.model.zero_grad()


            epoch_train_loss = epoch_train_loss / len(train_dataloader)
            train_loss_values.append(epoch_train_loss)
        return train_loss_values


# ---- driver (stands in for train_model.py) ----
if __name__ == "__main__":
    g = torch.Generator().manual_seed(0)
    ids = torch.randint(0, 100, (48, 12), generator=g)
    mask = (torch.rand(48, 12, generator=g) > 0.2).long()
    mask[:, 0] = 1
    labels = (ids[:, 0] > 50).long()
    train_dataloader = DataLoader(TensorDataset(ids, mask, labels), batch_size=8)
    model = myModel(epochs=2, lr=1e-3)
    losses = model.train(train_dataloader)
    print("train losses", losses)
    print("checksum", round(sum(losses), 6))
