"""Public check 43, p04: advantage actor-critic (A2C) on CartPole, one update per episode, CPU only (float64).

Source: https://github.com/Lucasc-99/Actor-Critic  src/a2c.py @ 049e2997, scripts/cart-pole-a2c.py @ 05983fd3 (the two
files in this order; the local import `from src.a2c import A2C` dropped since the files are one here).

Changes to make it run on the CPU in seconds:
- `gym` (not installed) -> a stand-in registered below: a seeded CartPole with the classic dynamics and gym's old API
  (`reset()`, `step()` returning 4 values, `render()` a no-op, `seed()`).
- seeds (`numpy`, `torch`) set below: the script's `SEED = None` seeds nothing and the program prints rewards.
- `MAX_EPISODES = 10000` -> 100 (the script prints every 100 episodes), the test loop `range(100)` -> `range(3)`.
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

    def sample(self):
        if self.n is not None:
            return int(self._rng.randint(self.n))
        return self._rng.uniform(-1, 1, size=self.shape).astype(_np.float64)


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
        return _np.array(self.state, dtype=_np.float64)

    def render(self):
        pass

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
        return _np.array(self.state, dtype=_np.float64), 1.0, done, {}


_gym = _types.ModuleType("gym")
_gym.make = lambda name, **kw: _CartPole(name, **kw)
_sys.modules["gym"] = _gym
_np.random.seed(0)
_torch.manual_seed(0)
# ---- end of stand-ins ----

# ===== src/a2c.py =====
import torch
import torch.nn as nn
from torch.distributions import Categorical


class A2C(nn.Module):

    def __init__(self, env, hidden_size=128, gamma=.99, random_seed=None):
        """
        Assumes fixed continuous observation space
        and fixed discrete action space (for now)

        :param env: target gym environment
        :param gamma: the discount factor parameter for expected reward function :float
        :param random_seed: random seed for experiment reproducibility :float, int, str
        """
        super().__init__()

        if random_seed:
            env.seed(random_seed)
            torch.manual_seed(random_seed)

        self.env = env
        self.gamma = gamma
        self.hidden_size = hidden_size
        self.in_size = len(env.observation_space.sample().flatten())
        self.out_size = self.env.action_space.n

        self.actor = nn.Sequential(
            nn.Linear(self.in_size, hidden_size),
            nn.ReLU(),
            nn.Linear(hidden_size, self.out_size)
        ).double()

        self.critic = nn.Sequential(
            nn.Linear(self.in_size, hidden_size),
            nn.ReLU(),
            nn.Linear(hidden_size, 1)
        ).double()

    def train_env_episode(self, render=False):
        """
        Runs one episode and collects critic values, expected return,
        :return: A tensor with total/expected reward, critic eval, and action information
        """
        rewards = []
        critic_vals = []
        action_lp_vals = []

        # Run episode and save information

        observation = self.env.reset()
        done = False
        while not done:
            if render:
                self.env.render()

            observation = torch.from_numpy(observation).double()

            # Get action from actor
            action_logits = self.actor(observation)

            action = Categorical(logits=action_logits).sample()

            # Get action probability
            action_log_prob = action_logits[action]

            # Get value from critic
            pred = torch.squeeze(self.critic(observation).view(-1))

            # Write prediction and action/probabilities to arrays
            action_lp_vals.append(action_log_prob)
            critic_vals.append(pred)

            # Send action to environment and get rewards, next state

            observation, reward, done, info = self.env.step(action.item())
            rewards.append(torch.tensor(reward).double())

        total_reward = sum(rewards)

        # Convert reward array to expected return and standardize
        for t_i in range(len(rewards)):
            G = 0
            for t in range(t_i, len(rewards)):
                G += rewards[t] * (self.gamma ** (t - t_i))
            rewards[t_i] = G

        # Convert output arrays to tensors using torch.stack
        def f(inp):
            return torch.stack(tuple(inp), 0)

        # Standardize rewards
        rewards = f(rewards)
        rewards = (rewards - torch.mean(rewards)) / (torch.std(rewards) + .000000000001)

        return rewards, f(critic_vals), f(action_lp_vals), total_reward

    def test_env_episode(self, render=True):
        """
        Run an episode of the environment in test mode
        :param render: Toggle rendering of environment :bool
        :return: Total reward :int
        """
        observation = self.env.reset()
        rewards = []
        done = False
        while not done:

            if render:
                self.env.render()

            observation = torch.from_numpy(observation).double()

            # Get action from actor
            action_logits = self.actor(observation)
            action = Categorical(logits=action_logits).sample()

            observation, reward, done, info = self.env.step(action.item())
            rewards.append(reward)

        return sum(rewards)

    @staticmethod
    def compute_loss(action_p_vals, G, V, critic_loss=nn.SmoothL1Loss()):
        """
        Actor Advantage Loss, where advantage = G - V
        Critic Loss, using mean squared error
        :param critic_loss: loss function for critic   :Pytorch loss module
        :param action_p_vals: Action Log Probabilities  :Tensor
        :param G: Actual Expected Returns   :Tensor
        :param V: Predicted Expected Returns    :Tensor
        :return: Actor loss tensor, Critic loss tensor  :Tensor
        """
        assert len(action_p_vals) == len(G) == len(V)
        advantage = G - V.detach()
        return -(torch.sum(action_p_vals * advantage)), critic_loss(G, V)

# ===== scripts/cart-pole-a2c.py =====
"""
Cart-pole reinforcement learning environment:
Agent learns to balance a pole on a cart

a2c: Agent uses Advantage Actor Critic algorithm

"""
import gym
import torch.optim as optim


LR = .001  # Learning rate
SEED = None  # Random seed for reproducibility
MAX_EPISODES = 100  # Max number of episodes

# Init actor-critic agent
agent = A2C(gym.make('CartPole-v0'), random_seed=SEED)

# Init optimizers
actor_optim = optim.Adam(agent.actor.parameters(), lr=LR)
critic_optim = optim.Adam(agent.critic.parameters(), lr=LR)

#
# Train
#

r = []  # Array containing total rewards
avg_r = 0  # Value storing average reward over last 100 episodes

for i in range(MAX_EPISODES):
    critic_optim.zero_grad()
    actor_optim.zero_grad()

    rewards, critic_vals, action_p_vals, total_reward = agent.train_env_episode(render=False)
    r.append(total_reward)

    l_actor, l_critic = agent.compute_loss(action_p_vals=action_p_vals, G=rewards, V=critic_vals)

    l_actor.backward()
    l_critic.backward()

    actor_optim.step()
    critic_optim.step()

    # Check average reward every 100 episodes, print, and end script if solved
    if len(r) % 100 == 0 and len(r) != 0:  # check average every 100 episodes

        episode_count = i - (i % 100)
        prev_episodes = r[len(r) - 100:]
        avg_r = sum(prev_episodes) / len(prev_episodes)

        print(f'Average reward during episodes {episode_count}-{episode_count+100} is {avg_r.item()}')
        if avg_r > 195:
            print(f"Solved CartPole-v0 with average reward {avg_r.item()}")
            break


#
# Test
#
for _ in range(3):
    agent.test_env_episode(render=True)

print("checksum", float(sum(r)), round(sum(float(p.detach().sum()) for p in agent.parameters()), 6))
