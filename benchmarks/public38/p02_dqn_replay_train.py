# Public check 38, p02: DQN with a replay buffer and a target net (Pong), five files joined.
# Source: https://github.com/DocyNoah/minimalRL @ ac44610e: docy/algorithm/dqn.py (DQNModel),
#   docy/modules/agent.py (DQNAgent), docy/modules/replay_buffer.py (ReplayBuffer),
#   docy/modules/network.py (AtariCNN), docy/experiment/exp_dqn_pong.py (the driver).
# Changes to make it run on the CPU in seconds:
# - the files are joined in one module (local imports dropped); `gym`, `wandb` and
#   common.atari_wrappers_ex / common.utils (not fetched) replaced by stand-ins: a seeded toy
#   environment with 4x36x36 float32 frames, 3 actions, 30-step episodes whose per-step reward is
#   the episode index (so that the "solved" test ends the run after 4 episodes); `current_time()`
#   returns a fixed string; seed_everything / seed_test seed numpy and torch.
# - AtariCNN gets `qvals = forward` (agent.py calls `self.net.qvals`, which only DistAtariCNN defines:
#   the source's DQN path would raise AttributeError on its first greedy action).
# - the episode print's "Episode Time {:3.2f}s" / "Total Time {:3.2f}s" formats of strings (a
#   ValueError in the source) -> "{}s", and `time` is a stand-in clock that ticks 1 s per call
#   (deterministic output); the best model is saved under a temp folder (env_name is a temp path).
# - the buffer's `dones` tensor dtype torch.uint8 -> torch.bool (`next_state_values[dones] = 0.0` with a
#   uint8 mask raises in torch 2.x: masked_fill_ only supports boolean masks).
# - the driver: batch 8, replay 500, min buffer 32, sync 20, eps over 100 frames, bound 40.0, a checksum
#   print; `torch.manual_seed(0)` before DQNModel (added after the first run: its nets are built before its seeding).
# DQNModel.calc_loss / train_loop / train_step, the agent and the buffer are the source's lines.
import os
import tempfile
import time as _real_time
import collections
import random
from collections import namedtuple
from typing import Tuple

import numpy as np
import torch
import torch.nn as nn
import torch.optim as optim


# ---- stand-ins: time, wandb, gym env, common.utils ----
class _Clock:
    def __init__(self):
        self.t = 0.0

    def time(self):
        self.t += 1.0
        return self.t

    strftime = staticmethod(_real_time.strftime)
    gmtime = staticmethod(_real_time.gmtime)
    sleep = staticmethod(lambda s: None)


time = _Clock()


class wandb:
    @staticmethod
    def init(**kw):
        pass


class _Box:
    def __init__(self, shape):
        self.shape = shape


class _Discrete:
    def __init__(self, n):
        self.n = n


class _ToyEnv:
    def __init__(self):
        self.observation_space = _Box((4, 36, 36))
        self.action_space = _Discrete(3)
        self.rng = np.random.RandomState(0)
        self.episode = 0
        self.t = 0

    def reset(self):
        self.t = 0
        return self.rng.rand(4, 36, 36).astype(np.float32)

    def step(self, action):
        self.t += 1
        done = self.t >= 30
        reward = float(self.episode)
        if done:
            self.episode += 1
        return self.rng.rand(4, 36, 36).astype(np.float32), reward, done, {}


def make_env(env_name):
    return _ToyEnv()


def current_time():
    return "2026-12-05 00:00:00"


class utils:
    @staticmethod
    def seed_everything(env):
        random.seed(0)
        np.random.seed(0)
        torch.manual_seed(0)

    @staticmethod
    def seed_test(env, device):
        pass


# ---- network.py ----
class AtariCNN(nn.Module):
    def __init__(self, obs_shape: Tuple[int], n_actions: int, hidden_size: int = 512):
        '''
        Args:
            obs_shape: (channel, height, width)
            n_actions:
            hidden_size:
        '''
        super(AtariCNN, self).__init__()

        input_channel = obs_shape[0]

        self.conv = nn.Sequential(
            nn.Conv2d(input_channel, 32, kernel_size=8, stride=4),
            nn.ReLU(),
            nn.Conv2d(32, 64, kernel_size=4, stride=2),
            nn.ReLU(),
            nn.Conv2d(64, 64, kernel_size=3, stride=1),
            nn.ReLU()
        )

        conv_out_size = self._get_conv_out(obs_shape)

        self.fc = nn.Sequential(
            nn.Linear(conv_out_size, hidden_size),
            nn.ReLU(),
            nn.Linear(hidden_size, n_actions)
        )

    def _get_conv_out(self, shape):
        conv_out = self.conv(torch.zeros(1, *shape))
        return int(np.prod(conv_out.size()))

    def forward(self, x):
        conv_out = self.conv(x)
        flatten_out = torch.flatten(conv_out, 1)
        out = self.fc(flatten_out)
        return out

    qvals = forward  # change: see the header


# ---- replay_buffer.py ----
# Named tuple for storing experience steps gathered in training
Experience = namedtuple(
    typename='Experience',
    field_names=['state', 'action', 'reward', 'done', 'new_state']
)


class ReplayBuffer:
    def __init__(self, capacity: int, device):
        self.buffer = collections.deque(maxlen=capacity)
        self.device = device

    def __len__(self):
        return len(self.buffer)

    def size(self):
        return len(self.buffer)

    def append(self, experience: Experience) -> None:
        self.buffer.append(experience)

    def pop(self):
        return self.buffer.pop()

    def reset(self):
        self.buffer.clear()

    def sample(self, batch_size: int) -> Tuple:
        # Get index
        indices = np.random.choice(len(self.buffer), size=batch_size, replace=False)

        # Sample
        states, actions, rewards, dones, next_states = zip(*[self.buffer[idx] for idx in indices])

        # Convert to ndarray for speed up cuda
        states = np.array(states)
        actions = np.array(actions)
        rewards = np.array(rewards, dtype=np.float32)
        dones = np.array(dones, dtype=np.uint8)
        next_states = np.array(next_states)

        # Convert to tensor
        states = torch.tensor(states, device=self.device)
        actions = torch.tensor(actions, dtype=torch.int64, device=self.device)
        rewards = torch.tensor(rewards, dtype=torch.float32, device=self.device)
        dones = torch.tensor(dones, dtype=torch.bool, device=self.device)
        next_states = torch.tensor(next_states, device=self.device)

        return states, actions, rewards, dones, next_states


# ---- agent.py ----
class DQNAgent:
    def __init__(
            self,
            net: nn.Module,
            env,
            replay_buffer: ReplayBuffer,
            eps_start: float = 1.0,
            eps_end: float = 0.2,
            eps_frames: float = 1000
    ):
        self.net = net
        self.env = env
        self.state = env.reset()
        self.n_actions = env.action_space.n
        self.replay_buffer = replay_buffer
        self.epsilon = eps_start
        self.eps_start = eps_start
        self.eps_end = eps_end
        self.eps_frames = eps_frames

    def get_action(self, state, epsilon: float, device: str) -> int:
        if np.random.random() < epsilon:
            action = np.random.randint(self.n_actions)
        else:
            # Convert to Tensor
            state = np.array(state, copy=False)
            state = torch.tensor(state, device=device)

            # Add batch-dim
            if len(state.shape) == 3:
                state = state.unsqueeze(dim=0)

            q_values = self.net.qvals(state)
            action = torch.argmax(q_values, dim=1)
            action = int(action.item())

        return action

    @torch.no_grad()
    def play_step(self, step: int,  device: str = 'cpu') -> Tuple[float, bool]:
        self.update_epsilon(step)
        action = self.get_action(self.state, self.epsilon, device)

        # do step in the environment
        new_state, reward, done, _ = self.env.step(action)

        exp = Experience(self.state, action, reward, done, new_state)
        self.replay_buffer.append(exp)

        self.state = new_state

        if done:
            self.state = self.env.reset()

        return reward, done

    def update_epsilon(self, step: int) -> None:
        self.epsilon = max(self.eps_end, self.eps_start - (step + 1) / self.eps_frames)

    def get_epsilon(self):
        return self.epsilon


# ---- dqn.py ----
class DQNModel(nn.Module):
    def __init__(
            self,
            batch_size=32,
            lr=0.0001,
            env_name="PongNoFrameskip-v4",
            gamma=0.99,
            sync_interval=1000,
            replay_size=10000,
            min_buffer_size_for_training=10000,
            eps_start=1.0,
            eps_end=0.02,
            eps_last_frame=300000,
            mean_reward_bound=15.0,
            seed=None,
            use_wandb=False,
            device=None
    ) -> None:
        super().__init__()
        self.batch_size = batch_size
        self.lr = lr
        self.env_name = env_name
        self.gamma = gamma
        self.sync_interval = sync_interval
        self.replay_size = replay_size
        self.min_buffer_size_for_training = min_buffer_size_for_training
        self.eps_start = eps_start
        self.eps_end = eps_end
        self.eps_last_frame = eps_last_frame
        self.mean_reward_bound = mean_reward_bound
        self.use_wandb = use_wandb
        if device:
            self.device = device

        # env
        self.env = make_env(self.env_name)
        obs_shape = self.env.observation_space.shape
        n_actions = self.env.action_space.n

        # network
        self.net = AtariCNN(obs_shape, n_actions).to(self.device)
        self.target_net = AtariCNN(obs_shape, n_actions).to(self.device)
        self.optimizer = optim.Adam(self.net.parameters(), lr=self.lr)

        # agent
        self.buffer = ReplayBuffer(self.replay_size, self.device)
        self.agent = DQNAgent(self.net, self.env, self.buffer,
                              self.eps_start, self.eps_end, self.eps_last_frame)

        # init rewards
        self.total_rewards = []
        self.episode_reward = 0
        self.best_mean_reward = -1000

        self.total_steps = 0
        self.train_steps = 0
        self.n_episode = 0

        # seed
        if seed is not None:
            utils.seed_everything(self.env)
            utils.seed_test(self.env, self.device)
            print(current_time())

        # wandb
        if self.use_wandb:
            wandb.init(project="minimalrl")
            wandb.run.name = "{}_{}".format(env_name, current_time())

    def calc_loss(self, batch: Tuple[torch.Tensor, torch.Tensor]) -> torch.Tensor:
        states, actions, rewards, dones, next_states = batch

        state_action_values = self.net(states).gather(1, actions.unsqueeze(-1)).squeeze(-1)

        with torch.no_grad():
            next_state_values = self.target_net(next_states).max(1)[0]  # argmax로 바꿀 예정
            next_state_values[dones] = 0.0
            next_state_values = next_state_values.detach()

        expected_state_action_values = next_state_values * self.gamma + rewards

        loss = nn.MSELoss()(state_action_values, expected_state_action_values)

        return loss

    def train_loop(self, file=None):
        best_mean_reward = -1000

        if file is not None:
            self.net.load_state_dict(torch.load(file))
            print("Load {}".format(file))
            best_mean_reward = self.mean_reward_bound - 1
            print("Best mean reward :", best_mean_reward)

        loss = 0
        episode_reward = 0

        epi_start_time = time.time()
        train_start_time = time.time()

        while True:
            self.total_steps += 1

            # play
            step_reward, done = self.agent.play_step(self.total_steps, self.device)
            episode_reward += step_reward

            # train
            if self.total_steps > self.min_buffer_size_for_training:
                loss = self.train_step()

            # logging
            if done:
                self.n_episode += 1
                self.total_rewards.append(episode_reward)
                episode_reward = 0

                mean_reward = np.mean(self.total_rewards[-100:])
                elapsed_time = time.strftime('%H:%M:%S', time.gmtime(time.time() - epi_start_time))
                training_time = time.strftime('%H:%M:%S', time.gmtime(time.time() - train_start_time))
                print("Steps {:6},".format(self.total_steps),
                      "Episode {:3},".format(self.n_episode),
                      "Mean Reward {:.3f},".format(mean_reward),
                      "Loss {:.3f},".format(loss),
                      "Epsilon {:.2f},".format(self.agent.get_epsilon()),
                      "Episode Time {}s".format(elapsed_time),
                      "Total Time {}s".format(training_time))

                epi_start_time = time.time()

                self.best_model_save(best_mean_reward, mean_reward)

                if mean_reward > self.mean_reward_bound:
                    print("Solved in {} frames!".format(self.total_steps))
                    break

        # terminate
        training_time = time.time() - train_start_time
        training_time = time.strftime('%H:%M:%S', time.gmtime(training_time))
        print("Training end : {}".format(training_time))

    def train_step(self):
        self.train_steps += 1

        batch = self.buffer.sample(self.batch_size)
        loss = self.calc_loss(batch)

        self.optimizer.zero_grad()
        loss.backward()
        self.optimizer.step()

        # sync
        if self.total_steps % self.sync_interval == 0:
            self.target_net.load_state_dict(self.net.state_dict())

        return loss

    def best_model_save(self, best_mean_reward, mean_reward):
        if best_mean_reward < mean_reward:
            torch.save(self.net.state_dict(), self.env_name + "-best.dat")
            best_mean_reward = mean_reward
            print("Best mean reward updated {:.3f}".format(best_mean_reward))


# ---- exp_dqn_pong.py ----
if __name__ == '__main__':
    torch.manual_seed(0)  # change: DQNModel builds its nets before its own seeding
    dqn = DQNModel(
        batch_size=8,
        lr=0.0001,
        env_name=os.path.join(tempfile.gettempdir(), "pub38_p02_pong"),
        gamma=0.99,
        sync_interval=20,
        replay_size=500,
        min_buffer_size_for_training=32,
        eps_start=1.0,
        eps_end=0.02,
        eps_last_frame=100,
        mean_reward_bound=40.0,
        seed=42,
        use_wandb=False,
        device=torch.device("cuda:0") if torch.cuda.is_available() else torch.device("cpu")
    )

    dqn.train_loop()
    print("checksum", round(sum(p.double().sum().item() for p in dqn.net.parameters()), 6))
