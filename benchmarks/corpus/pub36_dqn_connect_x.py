# corpus: runnable
# Public check 36 p07 (jeelkukadiya/Robotics, DQN for Connect-X, made runnable with stand-ins):
# the per-step replay conversion is found; the greedy action's per-element reads (110-111 of the
# public36 copy) and the per-transition device tensors concatenated (150) were missed at first contact.
# Public check 36, p07: DQN for Connect-X (agent, replay memory, optimize_model).
# Source: https://github.com/jeelkukadiya/Robotics/tree/b49ef90f330dc8efd033b903e3158edae860a306/ML/Stage_6/chat_gpt/v2
#   agent.py (from `device = ...` to the end), replay.py (whole), optimizer.py (`optimize_model`, whole).
# Changes to make it run on the CPU in seconds:
# - the three files are concatenated into one module in the order the notebook runs them, so the
#   globals `optimizer.py` reads (np, F, memory, BATCH_SIZE, device, policy_net, target_net,
#   GAMMA, optimizer) exist; `import replay`, `import environment as en`, `import dqn` dropped.
# - agent.py's epsilon-decay plot block (matplotlib, not in the venv) left out.
# - `environment.connect_x` and `dqn.DQN` (not fetched) replaced by stand-ins: a 6x7 board that
#   ends an episode after 6 random moves with a seeded reward, and a tiny conv Q-network;
#   `DQN = dqn.DQN()` kept in shape as `DQN = _dqn_factory()`.
# - BATCH_SIZE 256 -> 16; a driver at the end (30 episodes: select_action, step, dump,
#   optimize_model; target update every 10 episodes) with a checksum.
import math
import random

import numpy as np
import torch
import torch.nn.functional as F
import torch.optim as optim

random.seed(0)
np.random.seed(0)
torch.manual_seed(0)


# ---- stand-ins for environment.connect_x and dqn.DQN (not part of the source) ----
class connect_x:
    board_width = 7
    board_height = 6

    def reset(self):
        self.board = np.zeros((6, 7), dtype=np.float32)
        self.moves = 0
        return self.board.copy()

    def available_actions(self):
        return [c for c in range(7) if self.board[0, c] == 0]

    def step(self, action):
        row = max(r for r in range(6) if self.board[r, action] == 0)
        self.board[row, action] = 1.0 if self.moves % 2 == 0 else -1.0
        self.moves += 1
        done = self.moves >= 6
        reward = float(random.choice([-1, 0, 1])) if done else 0.0
        return (None if done else self.board.copy()), reward, done


def _dqn_factory():
    class DQN(torch.nn.Module):
        def __init__(self, n_actions):
            super().__init__()
            self.conv = torch.nn.Conv2d(1, 4, 3, padding=1)
            self.head = torch.nn.Linear(4 * 6 * 7, n_actions)

        def forward(self, x):
            return self.head(F.relu(self.conv(x)).flatten(1))
    return DQN


class en:
    connect_x = connect_x
# ---- end of stand-ins ----

EPS_START = 0.9
EPS_END = 0.05
EPS_DECAY = 2000

###################
device = torch.device("cuda:0" if torch.cuda.is_available() else "cpu")
# Assuming that we are on a CUDA machine, this should print a CUDA device:
print(device)
###################
BATCH_SIZE = 16
GAMMA = 0.999

#make connect_x instance
env = en.connect_x()
DQN = _dqn_factory()

# get max no. of actions from action space
n_actions = env.board_width

height = env.board_height
width = env.board_width

policy_net = DQN(n_actions).to(device)
# target_net will be updated every n episodes to tell policy_net a better estimate of how far off from convergence
target_net = DQN(n_actions).to(device)
target_net.load_state_dict(policy_net.state_dict())
# set target_net in testing mode
target_net.eval()

optimizer = optim.Adam(policy_net.parameters())

def select_action(state, available_actions, steps_done=None, training=True):
    # batch and color channel
    state = torch.tensor(state, dtype=torch.float, device=device).unsqueeze(dim=0).unsqueeze(dim=0)  # paef: ok cpu-then-move
    epsilon = random.random()
    if training:
        eps_threshold = EPS_END + (EPS_START - EPS_END) * math.exp(-1 * steps_done / EPS_DECAY)
    else:
        eps_threshold = 0
    
    # follow epsilon-greedy policy
    if epsilon > eps_threshold:
        with torch.no_grad():
            # action recommendations from policy net
            r_actions = policy_net(state)[0, :]
            state_action_values = [r_actions[action] for action in available_actions]
            argmax_action = np.argmax(state_action_values)  # paef: expect host-sync
            greedy_action = available_actions[argmax_action]
            return greedy_action
    else:
        return random.choice(available_actions)


# ---- replay.py ----
# memory block for deep q learning
class replayMemory:
    def __init__(self):
        self.memory = []
        
    def dump(self, transition_tuple):
        self.memory.append(transition_tuple)
    
    def sample(self, batch_size):
        return random.sample(self.memory, batch_size)  # paef: expect record-buffer
    
    def __len__(self):
        return len(self.memory)
    
memory = replayMemory()


# ---- optimizer.py ----
def optimize_model():
    if len(memory) < BATCH_SIZE:
        return
    transitions = memory.sample(BATCH_SIZE)
    state_batch, action_batch, reward_batch, next_state_batch = zip(*[(np.expand_dims(m[0], axis=0), \
                                        [m[1]], m[2], np.expand_dims(m[3], axis=0)) for m in transitions])
    # tensor wrapper
    state_batch = torch.tensor(state_batch, dtype=torch.float, device=device)  # paef: expect list-to-tensor
    action_batch = torch.tensor(action_batch, dtype=torch.long, device=device)  # paef: ok list-to-tensor
    reward_batch = torch.tensor(reward_batch, dtype=torch.float, device=device)  # paef: ok list-to-tensor
    
    # for assigning terminal state value = 0 later
    non_final_mask = torch.tensor(tuple(map(lambda s_: s_[0] is not None, next_state_batch)), device=device)  # paef: ok list-to-tensor
    non_final_next_state = torch.cat([torch.tensor(s_, dtype=torch.float, device=device).unsqueeze(0) for s_ in next_state_batch if s_[0] is not None])  # paef: expect list-to-tensor
    
    # prediction from policy_net
    state_action_values = policy_net(state_batch).gather(1, action_batch)
    
    # truth from target_net, initialize with zeros since terminal state value = 0
    next_state_values = torch.zeros(BATCH_SIZE, device=device)
    # tensor.detach() creates a tensor that shares storage with tensor that does not require grad
    next_state_values[non_final_mask] = target_net(non_final_next_state).max(1)[0].detach()  # paef: expect eval-without-no-grad
    # compute the expected Q values
    expected_state_action_values = (next_state_values * GAMMA) + reward_batch

    # Compute Huber loss
    loss = F.smooth_l1_loss(state_action_values, expected_state_action_values.unsqueeze(1)) # torch.tensor.unsqueeze returns a copy

    optimizer.zero_grad()
    loss.backward()
    optimizer.step()


# ---- driver (not part of the source) ----
steps = 0
for episode in range(30):
    state = env.reset()
    done = False
    while not done:
        action = select_action(state, env.available_actions(), steps_done=steps)
        next_state, reward, done = env.step(action)
        memory.dump((state, action, reward, next_state))
        state = next_state
        steps += 1
        optimize_model()
    if episode % 10 == 0:
        target_net.load_state_dict(policy_net.state_dict())
print("checksum", steps, round(sum(float(p.sum()) for p in policy_net.parameters()), 4))
