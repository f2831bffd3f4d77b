# corpus: runnable
# Training loops that step on every batch and also keep an auxiliary sum of losses with its
# graph, back-propagated after the loop through a call the analysis cannot see into: a
# callback parameter, getattr, a dict of lambdas, a method a subclass overrides.
import torch
import torch.nn as nn

torch.manual_seed(0)
torch.set_num_threads(1)
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
model = nn.Linear(4, 1).to(device)
opt = torch.optim.SGD(model.parameters(), lr=0.05)
data = [(torch.randn(8, 4), torch.randn(8, 1)) for _ in range(4)]
HOOKS = {"reg": lambda t: t.backward(), "none": lambda t: None}
gate = nn.Parameter(torch.ones(4, device=device))
gate_opt = torch.optim.SGD([gate], lr=0.1)


def train(on_epoch_end):
    for epoch in range(2):
        reg_total = 0
        for xb, yb in data:
            xb, yb = xb.to(device), yb.to(device)
            loss = nn.functional.mse_loss(model(xb), yb)
            opt.zero_grad()
            loss.backward()
            opt.step()
            reg_total = reg_total + (gate * xb).pow(2).mean()
        gate_opt.zero_grad()
        on_epoch_end(reg_total)
        gate_opt.step()
    print([round(v, 6) for v in gate.detach().tolist()])


train(HOOKS["reg"])


def train_getattr():
    for epoch in range(2):
        reg_total = 0
        for xb, yb in data:
            xb, yb = xb.to(device), yb.to(device)
            loss = nn.functional.mse_loss(model(xb), yb)
            opt.zero_grad()
            loss.backward()
            opt.step()
            reg_total += (gate * xb).abs().mean()
        gate_opt.zero_grad()
        getattr(reg_total, "backward")()
        gate_opt.step()
    print("getattr", [round(v, 6) for v in gate.detach().tolist()])


train_getattr()


class Base:
    def end(self, total):
        return float(total)

    def fit(self):
        for epoch in range(2):
            kept = []
            for xb, yb in data:
                xb, yb = xb.to(device), yb.to(device)
                loss = nn.functional.mse_loss(model(xb), yb)
                opt.zero_grad()
                loss.backward()
                opt.step()
                kept.append((gate * xb).pow(2).mean())
            gate_opt.zero_grad()
            self.end(torch.stack(kept).sum())
            gate_opt.step()


class Reg(Base):
    def end(self, total):
        total.backward()


Reg().fit()
print("override", [round(v, 6) for v in gate.detach().tolist()])
