# corpus: runnable
"""A DQN agent class (the shape of most public DQN code): the online and target networks are
attributes of the agent, and `learn()` computes the bootstrap target with
`self.target_net(next_states).detach()` on every update, recording a graph that `.detach()`
drops at once. A distillation trainer does the same with `self.teacher(x).detach()`.
Near-misses: a target forward already under `torch.no_grad()`, an attribute network that the
agent's optimizer also trains (a second head detached for one term), and a detached forward of
the online network that the same step also back-propagates through."""
import random

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
random.seed(0)
torch.set_num_threads(1)
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")


class QNetwork(nn.Module):
    def __init__(self, n_obs, n_act):
        super().__init__()
        self.layers = nn.Sequential(nn.Linear(n_obs, 64), nn.ReLU(), nn.Linear(64, n_act))

    def forward(self, x):
        return self.layers(x)


class Agent:
    def __init__(self, n_obs, n_act, gamma=0.99):
        self.policy_net = QNetwork(n_obs, n_act).to(device)
        self.target_net = QNetwork(n_obs, n_act).to(device)
        self.target_net.load_state_dict(self.policy_net.state_dict())
        self.target_net.eval()
        self.optimizer = torch.optim.Adam(self.policy_net.parameters(), lr=1e-3)
        self.gamma = gamma

    def learn(self, states, actions, rewards, next_states, dones):
        q = self.policy_net(states).gather(1, actions.unsqueeze(1)).squeeze(1)
        next_q = self.target_net(next_states).detach().max(1)[0]  # paef: expect eval-without-no-grad
        target = rewards + self.gamma * next_q * (1 - dones)
        loss = F.smooth_l1_loss(q, target)
        self.optimizer.zero_grad()
        loss.backward()
        self.optimizer.step()
        return loss.detach()

    def learn_no_grad(self, states, actions, rewards, next_states, dones):
        q = self.policy_net(states).gather(1, actions.unsqueeze(1)).squeeze(1)
        with torch.no_grad():
            next_q = self.target_net(next_states).detach().max(1)[0]
        loss = F.smooth_l1_loss(q, rewards + self.gamma * next_q * (1 - dones))
        self.optimizer.zero_grad()
        loss.backward()
        self.optimizer.step()

    def learn_double(self, states, actions, rewards, next_states, dones):
        best = self.policy_net(next_states).detach().argmax(1, keepdim=True)
        q = self.policy_net(states).gather(1, actions.unsqueeze(1)).squeeze(1)
        next_q = self.target_net(next_states).gather(1, best).squeeze(1).detach()  # paef: expect eval-without-no-grad
        loss = F.smooth_l1_loss(q, rewards + self.gamma * next_q * (1 - dones))
        self.optimizer.zero_grad()
        loss.backward()
        self.optimizer.step()


class TwoHeads:
    def __init__(self):
        self.body = nn.Linear(6, 16).to(device)
        self.aux = nn.Linear(16, 2).to(device)
        self.optimizer = torch.optim.SGD(list(self.body.parameters()) + list(self.aux.parameters()), lr=0.01)

    def update(self, x, y):
        h = self.body(x)
        anchor = self.aux(h).detach()
        loss = F.mse_loss(self.aux(h), y) + 0.1 * F.mse_loss(self.aux(h), anchor)
        self.optimizer.zero_grad()
        loss.backward()
        self.optimizer.step()


class Distiller:
    def __init__(self, teacher, student):
        self.teacher = teacher
        self.student = student
        self.optimizer = torch.optim.Adam(student.parameters(), lr=1e-3)

    def step(self, x):
        soft = self.teacher(x).detach()  # paef: expect eval-without-no-grad
        loss = F.kl_div(F.log_softmax(self.student(x), 1), F.softmax(soft, 1), reduction="batchmean")
        self.optimizer.zero_grad()
        loss.backward()
        self.optimizer.step()
        return loss.detach()


agent = Agent(6, 3)
total = torch.zeros((), device=device)
for step in range(60):
    s = torch.randn(32, 6, device=device)
    a = torch.randint(0, 3, (32,), device=device)
    r = torch.randn(32, device=device)
    s2 = torch.randn(32, 6, device=device)
    d = (torch.rand(32, device=device) < 0.1).float()
    total += agent.learn(s, a, r, s2, d)
    agent.learn_no_grad(s, a, r, s2, d)
    agent.learn_double(s, a, r, s2, d)
    if step % 20 == 0:
        agent.target_net.load_state_dict(agent.policy_net.state_dict())
heads = TwoHeads()
for step in range(20):
    heads.update(torch.randn(8, 6, device=device), torch.randn(8, 2, device=device))
distiller = Distiller(QNetwork(6, 3).to(device), QNetwork(6, 3).to(device))
kd = torch.zeros((), device=device)
for step in range(30):
    kd += distiller.step(torch.randn(16, 6, device=device))
print(round(float(total), 3), round(float(kd), 3))
