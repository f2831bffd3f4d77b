# Public check 38, p08: REINFORCE with reward-to-go on CartPole (policy gradient, CPU program).
# Source: https://github.com/davenpi/rlrn reinforce/rw_to_go.py @ 98fd279b
# Changes to make it run on the CPU in seconds:
# - `gymnasium` (not in the venv) replaced by a seeded CartPole-like stand-in with the gymnasium API
#   (reset -> (obs, info), step -> (obs, reward, terminated, truncated, info)): 4 float64 state values,
#   2 actions, reward 1.0 per step, terminated when a random walk leaves [-1, 1], truncated at 40 steps.
# - num_updates 200 -> 4, episodes_per_update 100 -> 6; torch seeded; a checksum print at the end.
# The network and the update loop are the source's lines.
import numpy as np
import torch
import torch.nn as nn


# ---- stand-in for gymnasium ----
class _Box:
    shape = (4,)


class _Discrete:
    n = 2


class _CartPoleStandIn:
    observation_space = _Box()
    action_space = _Discrete()

    def __init__(self):
        self.rng = np.random.RandomState(0)

    def reset(self):
        self.t = 0
        self.state = self.rng.uniform(-0.05, 0.05, size=4)
        return self.state.copy(), {}

    def step(self, action):
        self.t += 1
        self.state = self.state + (0.1 if action == 1 else -0.1) * self.rng.rand(4) + 0.05 * self.rng.randn(4)
        term = bool(np.abs(self.state).max() > 1.0)
        trunc = self.t >= 40
        return self.state.copy(), 1.0, term, trunc, {}


class gym:
    @staticmethod
    def make(name):
        return _CartPoleStandIn()


torch.manual_seed(0)


class LogitsNetwork(nn.Module):
    """
    A simple feedforward neural network that takes a state and outputs a logits vector
    over actions.
    """

    def __init__(self, state_dim, action_dim, hidden_dim=128):
        super(LogitsNetwork, self).__init__()
        self.fc1 = nn.Linear(state_dim, hidden_dim)
        self.fc2 = nn.Linear(hidden_dim, action_dim)

    def forward(self, state):
        x = torch.relu(self.fc1(state))
        return self.fc2(x)


# Create the environment
env = gym.make("CartPole-v1")

# Get the state and action dimensions
state_dim = env.observation_space.shape[0]
action_dim = env.action_space.n

logits_network = LogitsNetwork(state_dim, action_dim)
lr = 0.001
optimizer = torch.optim.Adam(logits_network.parameters(), lr=lr)

num_updates = 4

for update in range(num_updates):
    episodes_per_update = 6
    optimizer.zero_grad()

    total_psuedo_loss = 0

    returns = []
    for episode in range(episodes_per_update):
        obs, info = env.reset()
        trunc = False
        term = False
        ret = 0
        rewards = []
        log_probs = []
        while not trunc and not term:
            logits = logits_network(torch.tensor(obs, dtype=torch.float32))
            probs = torch.softmax(logits, dim=0)
            action = torch.multinomial(probs, num_samples=1)
            log_probs.append(torch.log(probs[action]))
            obs, rew, term, trunc, info = env.step(action.item())
            rewards.append(rew)
            ret += rew

        for i in range(len(rewards)):
            rw_to_go = sum(rewards[i:])
            total_psuedo_loss += log_probs[i] * rw_to_go

        returns.append(sum(rewards))
    avg_psuedo_loss = -total_psuedo_loss / episodes_per_update
    avg_psuedo_loss.backward()
    optimizer.step()

    if update % 10 == 0 or update == num_updates - 1:
        print(
            f"Update {update}: Avg return = {sum(returns) / len(returns):.1f}, "
            f"Min = {min(returns)}, Max = {max(returns)}"
        )

print("checksum", round(sum(p.double().sum().item() for p in logits_network.parameters()), 6))
