import torch
import torch.nn as nn


class DKT(nn.Module):
    """Deep knowledge tracing: an LSTM over one-hot (skill, correct) interactions that predicts
    the probability of answering each skill correctly at the next step."""

    def __init__(self, n_skills, hidden=32):
        super().__init__()
        self.hidden = hidden
        self.lstm = nn.LSTM(2 * n_skills, hidden, batch_first=True)
        self.out = nn.Linear(hidden, n_skills)

    def forward(self, x):
        h0 = torch.zeros(1, x.size(0), self.hidden).to(x.device)  # paef: expect cpu-then-move; refuse redundant-tensor
        c0 = torch.zeros(1, x.size(0), self.hidden).to(x.device)  # paef: expect cpu-then-move; refuse redundant-tensor
        out, _ = self.lstm(x, (h0, c0))
        return self.out(out)
