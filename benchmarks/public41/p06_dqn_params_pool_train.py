"""Public check 41, p06: DQN on CartPole written with a parameter pool (Q net, target net, replay buffer of lists).

Source: https://github.com/zhihanyang2022/pytorch-dqn  replay_buffer.py @ 3e22f865, params_pool.py @ 2e11be34,
train_cartpole.py @ 3e22f865 (the three files in this order; the two local imports `from replay_buffer import Batch`,
`from replay_buffer import ReplayBuffer` / `from params_pool import ParamsPool` dropped since the files are one here).

Changes to make it run on the CPU in seconds:
- `gym` (not installed) -> a stand-in registered below: a seeded CartPole with the classic dynamics and gym's old API
  (`reset()`, `step()` returning 4 values, `env.state` a tuple after a step as in gym's CartPole).
- seeds (`numpy`, `torch`) set below: the source seeds nothing and prints every episode's return.
- `num_episodes = 200` -> `num_episodes = 3`.
- a `checksum` print at the end.
The source's lines are otherwise unchanged (the program never moves anything to a device).
"""
# ---- stand-ins: gym (CartPole, old API); seeds ----
import math as _math
import sys as _sys
import types as _types
import numpy as _np
import torch as _torch

class _Space:
    def __init__(self, rng, shape=None, n=None):
        self._rng, self.shape, self.n = rng, shape, n
        if shape is not None:
            self.low = _np.array([-4.8, -3.4028235e38, -0.41887903, -3.4028235e38], dtype=_np.float32)
            self.high = -self.low
    def sample(self):
        if self.n is not None:
            return int(self._rng.randint(self.n))
        return self._rng.uniform(-1, 1, size=self.shape).astype(_np.float32)
    def __repr__(self):
        return f"Discrete({self.n})" if self.n is not None else f"Box({self.shape})"


class _CartPole:
    """The classic cart-pole dynamics (gym's CartPole, old step API: state, reward, done, info)."""
    def __init__(self, name, **kw):
        self._rng = _np.random.RandomState(0)
        self.observation_space = _Space(self._rng, shape=(4,))
        self.action_space = _Space(self._rng, shape=(), n=2)
        self.state, self._t = None, 0

    def seed(self, s):
        self._rng.seed(s)

    def reset(self):
        self.state, self._t = self._rng.uniform(-0.05, 0.05, size=(4,)), 0
        return _np.array(self.state, dtype=_np.float32)

    def step(self, action):
        x, x_dot, th, th_dot = self.state
        force = 10.0 if action == 1 else -10.0
        ct, st = _math.cos(th), _math.sin(th)
        temp = (force + 0.05 * th_dot ** 2 * st) / 1.1
        th_acc = (9.8 * st - ct * temp) / (0.5 * (4.0 / 3.0 - 0.1 * ct ** 2 / 1.1))
        x_acc = temp - 0.05 * th_acc * ct / 1.1
        x, x_dot = x + 0.02 * x_dot, x_dot + 0.02 * x_acc
        th, th_dot = th + 0.02 * th_dot, th_dot + 0.02 * th_acc
        self.state, self._t = (x, x_dot, th, th_dot), self._t + 1
        done = bool(abs(x) > 2.4 or abs(th) > 0.2095 or self._t >= 200)
        return _np.array(self.state, dtype=_np.float32), 1.0, done, {}

    def close(self):
        pass


_sys.modules["gym"] = _types.SimpleNamespace(make=lambda name, **kw: _CartPole(name, **kw))
_np.random.seed(0)
_torch.manual_seed(0)
# ---- end of stand-ins ----

# ===== replay_buffer.py =====
import numpy as np
import torch
from collections import namedtuple

Batch = namedtuple('Batch', 's a r s_prime a_prime mask')

class ReplayBuffer:

    def __init__(self, size):
        self.states = []
        self.actions = []
        self.rewards = []
        self.next_states = []
        self.next_actions = []
        self.masks = []
        self.size = size

    def push(self, state, action, reward, next_state, next_action, mask):
        self.states.append(state)
        self.actions.append(action)
        self.rewards.append(reward)
        self.next_states.append(next_state)
        self.next_actions.append(next_action)
        self.masks.append(mask)

        # clean up bellman samples that are too old to use
        if len(self.states) > self.size:
            self.states = self.states[1:]
            self.actions = self.actions[1:]
            self.rewards = self.rewards[1:]
            self.next_states = self.next_states[1:]
            self.next_actions = self.next_actions[1:]
            self.masks = self.masks[1:]

    def sample(self, batch_size) -> Batch:
        idxs = np.random.randint(len(self.states), size=batch_size)
        s = torch.tensor(self.states)[idxs].float()
        a = torch.tensor(self.actions)[idxs].view(-1, 1).long()
        r = torch.tensor(self.rewards)[idxs].view(-1, 1).float()
        s_prime = torch.tensor(self.next_states)[idxs].float()
        a_prime = torch.tensor(self.next_actions)[idxs].view(-1, 1).long()
        mask = torch.tensor(self.masks)[idxs].view(-1, 1).long()
        return Batch(s, a, r, s_prime, a_prime, mask)

# ===== params_pool.py =====
import numpy as np
import torch
import torch.nn as nn
from torch import optim

class ParamsPool:

    """
    ParamPool stands for parameter pool. This is inspired by the fact that everything
    in this class, including the behavior and target policies + the prediction and target
    Q networks all depend heavily on lots of parameters.

    Of course, it also involves methods to update the parameters in the face of new data.

    Exposed arguments:
        input_dim (int): dimension of input of the two q networks
        action_dim (int): dimension of output of the two q networks
        epsilon_multiplier (float): epsilon is multiplier by this constant after each episode
        epsilon_min (float): epsilon will be decayed until it reaches this threshold
        gamma (float): discount factor

    Un-exposed arguments (that you might want to play with):
        number of layers and neurons in each layer
        learning rate
        epsilon decay schedule
    """

    def __init__(self, input_dim, num_actions, epsilon_multiplier=0.99, epsilon_min=0.05, gamma=0.95):

        # ===== the Q prediction network =====

        self.q_prediction_net = nn.Sequential(
            nn.Linear(input_dim, 512),
            nn.LeakyReLU(),
            nn.Linear(512, 512),
            nn.LeakyReLU(),
            nn.Linear(512, 512),
            nn.LeakyReLU(),
            nn.Linear(512, 512),
            nn.LeakyReLU(),
            nn.Linear(512, num_actions),
        )

        # ===== the Q target network =====

        self.q_target_net = nn.Sequential(
            nn.Linear(input_dim, 512),
            nn.LeakyReLU(),
            nn.Linear(512, 512),
            nn.LeakyReLU(),
            nn.Linear(512, 512),
            nn.LeakyReLU(),
            nn.Linear(512, 512),
            nn.LeakyReLU(),
            nn.Linear(512, num_actions),
        )

        # ref: https://discuss.pytorch.org/t/how-the-pytorch-freeze-network-in-some-layers-only-the-rest-of-the-training/7088
        self.q_target_net.eval()

        # ===== optimizer =====

        # ref: https://pytorch.org/docs/stable/optim.html
        self.optim = optim.Adam(self.q_prediction_net.parameters())

        # ===== hyper-parameters =====

        self.num_actions = num_actions  # for action selection
        self.epsilon = 1.0
        self.epsilon_multiplier = epsilon_multiplier
        self.epsilon_min = epsilon_min
        self.gamma = gamma

    def update_q_prediction_net(self, batch: Batch, debug: bool=False) -> None:

        targets = batch.r + self.gamma * self.q_target_net(batch.s_prime).gather(1, batch.a_prime) * batch.mask

        predictions = self.q_prediction_net(batch.s).gather(1, batch.a)

        loss = torch.mean((targets - predictions) ** 2)
        if debug: print(float(loss))

        self.optim.zero_grad()
        loss.backward()
        self.optim.step()

    def update_q_target_net(self) -> None:

        self.q_target_net.load_state_dict(self.q_prediction_net.state_dict())

    def act_using_behavior_policy(self, state: np.array) -> int:

        if np.random.uniform() < self.epsilon:
            return np.random.randint(self.num_actions)
        else:
            return self.act_using_target_policy(state)

    def act_using_target_policy(self, state: np.array) -> int:

        state = torch.tensor(state).unsqueeze(0).float()

        with torch.no_grad():
            q_values = self.q_prediction_net(state).numpy()

        return np.argmax(q_values)

    def decay_epsilon(self) -> None:
        if self.epsilon > self.epsilon_min:
            self.epsilon *= self.epsilon_multiplier

# ===== train_cartpole.py =====
import gym

buf = ReplayBuffer(size=10000)
param = ParamsPool(input_dim=4, num_actions=2)
target_network_update_duration = 10
max_steps = 200
batch_size = 32

env = gym.make('CartPole-v0')

num_episodes = 3  # enough for convergence

for e in range(num_episodes):

    env.reset()

    total_reward = 0
    total_steps = 0

    while True:

        # ===== getting the tuple (s, a, r, s', a') =====

        state = env.state
        action = param.act_using_behavior_policy(state)

        next_state, reward, done, _ = env.step(action)

        # logistics
        total_reward += reward
        total_steps += 1
        if total_steps >= max_steps: done = True

        next_action = param.act_using_target_policy(next_state)

        mask = 0 if done else 1

        # ===== storing it to the buffer =====

        buf.push(state, action, reward, next_state, next_action, mask)

        # ===== update the parameters =====

        param.update_q_prediction_net(buf.sample(batch_size=batch_size))

        # ===== check done =====

        if done: break

    # ===== after an episode =====

    if e % target_network_update_duration == 0:
        param.update_q_target_net()

    param.decay_epsilon()

    print(f'Episode {e:3.0f} | Return {total_reward:3.0f} | Epsilon {param.epsilon:3.2f}')

env.close()

print("checksum", len(buf.states), round(sum(float(p.detach().sum()) for p in param.q_prediction_net.parameters()), 4))
