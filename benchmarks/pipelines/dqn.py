"""BCD4Rec-like DQN recommender: one training run, hurried (`before`) and hand-fixed (`after`).

Each step every simulated user is in a state (its preferences and the mean features of the
items it last saw); a Q-network scores every item, an epsilon-greedy policy recommends one,
the user rewards it if it matches its preferences, and a replay buffer feeds a TD update
against a target network.

`before` carries the antipatterns: item features normalised in numpy and rebuilt into a
tensor every step (cpu-function, redundant-tensor), actions and rewards chosen user by user
with `.item()` (host-sync, elementwise-loop), the replay buffer a dict of Python lists filled
with `.tolist()` and read back per batch (ping-pong, dict-as-list), the target network run
without `no_grad` (eval-without-no-grad), a hand-written Huber loss (operator-fusion) and the
epoch loss summed with its graphs (graph-retention). `after` is the same computation fixed.
All randomness is drawn up front, so both consume it identically.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import torch
import torch.nn.functional as F

Data = dict[str, Any]

GAMMA = 0.9


def make_data(tiny: bool = False, device: str | torch.device = "cpu", seed: int = 0) -> Data:
    users, items, feat, hist, steps, batch, hidden = (
        (6, 10, 4, 3, 5, 4, 8) if tiny else (256, 1000, 32, 5, 40, 256, 128)
    )
    rng = np.random.default_rng(seed)
    generator = torch.Generator().manual_seed(seed)
    return {
        "user_pref": rng.standard_normal((users, feat)).astype(np.float32).tolist(),
        "item_raw": rng.gamma(2.0, 1.0, (items, feat)) * rng.choice([-1.0, 1.0], (items, feat)),
        "history": rng.integers(0, items, (users, hist)).tolist(),
        "explore": rng.random((steps, users)) < np.linspace(0.9, 0.1, steps)[:, None],
        "random_action": rng.integers(0, items, (steps, users)),
        "sample": rng.random((steps, batch)),
        "q_init": [torch.randn(2 * feat, hidden, generator=generator) * 0.1,
                   torch.randn(hidden, items, generator=generator) * 0.1],
        "sync_every": 4,
        "device": torch.device(device),
    }


def _networks(d: Data) -> tuple[list[torch.Tensor], list[torch.Tensor], torch.optim.Optimizer]:
    q = [w.clone().to(d["device"]).requires_grad_() for w in d["q_init"]]
    target = [w.detach().clone() for w in q]
    return q, target, torch.optim.Adam(q, lr=0.005)


def _q_values(weights: list[torch.Tensor], states: torch.Tensor) -> torch.Tensor:
    return torch.relu(states @ weights[0]) @ weights[1]


def _state(user_pref: torch.Tensor, item_feats: torch.Tensor, history: torch.Tensor) -> torch.Tensor:
    return torch.cat([user_pref, item_feats[history].mean(1)], dim=1)


def before(d: Data) -> dict[str, torch.Tensor]:
    q_net, target_net, opt = _networks(d)
    device = d["device"]
    history = [list(h) for h in d["history"]]
    user_pref = torch.tensor(d["user_pref"], device=device)
    buffer: dict[str, list] = {"state": [], "action": [], "reward": [], "next_state": []}
    losses, rewards = [], []
    epoch_loss = 0
    for step in range(len(d["explore"])):
        norms = np.linalg.norm(d["item_raw"], axis=1, keepdims=True)
        item_feats = torch.tensor(d["item_raw"] / norms, dtype=torch.float32, device=device)
        states = _state(user_pref, item_feats, torch.tensor(history, device=device))
        q = _q_values(q_net, states)

        step_reward = 0.0
        for u in range(len(history)):
            if d["explore"][step][u]:
                action = int(d["random_action"][step][u])
            else:
                action = q[u].argmax().item()
            reward = 1.0 if (user_pref[u] * item_feats[action]).sum().item() > 0.5 else 0.0
            history[u] = history[u][1:] + [action]
            buffer["state"].append(states[u].tolist())
            buffer["action"].append(action)
            buffer["reward"].append(reward)
            step_reward += reward
        next_states = _state(user_pref, item_feats, torch.tensor(history, device=device))
        for u in range(len(history)):
            buffer["next_state"].append(next_states[u].tolist())
        rewards.append(step_reward / len(history))

        idx = (d["sample"][step] * len(buffer["action"])).astype(int).tolist()
        s = torch.tensor([buffer["state"][i] for i in idx], device=device)
        a = torch.tensor([buffer["action"][i] for i in idx], device=device)
        r = torch.tensor([buffer["reward"][i] for i in idx], device=device)
        s2 = torch.tensor([buffer["next_state"][i] for i in idx], device=device)
        y = r + GAMMA * _q_values(target_net, s2).max(1)[0].detach()
        q_sa = _q_values(q_net, s).gather(1, a[:, None]).squeeze(1)
        diff = q_sa - y
        loss = torch.where(diff.abs() < 1.0, 0.5 * diff**2, diff.abs() - 0.5).mean()

        opt.zero_grad()
        loss.backward()
        opt.step()
        epoch_loss += loss
        losses.append(loss.item())
        if step % d["sync_every"] == 0:
            target_net = [w.detach().clone() for w in q_net]
    return {"loss": torch.tensor(losses), "reward": torch.tensor(rewards),
            "epoch_loss": epoch_loss.detach(), "weights": [w.detach() for w in q_net]}


def after(d: Data) -> dict[str, torch.Tensor]:
    q_net, target_net, opt = _networks(d)
    device = d["device"]
    n_steps, n_users = d["explore"].shape
    history = torch.tensor(d["history"], device=device)
    user_pref = torch.tensor(d["user_pref"], device=device)
    norms = np.linalg.norm(d["item_raw"], axis=1, keepdims=True)
    item_feats = torch.tensor(d["item_raw"] / norms, dtype=torch.float32, device=device)
    explore = torch.from_numpy(d["explore"]).to(device)
    random_action = torch.from_numpy(d["random_action"]).to(device)
    sample = torch.from_numpy(d["sample"]).to(device)
    capacity = n_steps * n_users
    buffer = {
        "state": torch.empty(capacity, user_pref.shape[1] * 2, device=device),
        "action": torch.empty(capacity, dtype=torch.long, device=device),
        "reward": torch.empty(capacity, device=device),
        "next_state": torch.empty(capacity, user_pref.shape[1] * 2, device=device),
    }
    losses, rewards = [], []
    epoch_loss = torch.zeros((), device=device)
    for step in range(n_steps):
        states = _state(user_pref, item_feats, history)
        q = _q_values(q_net, states)
        actions = torch.where(explore[step], random_action[step], q.argmax(1))
        reward = ((user_pref * item_feats[actions]).sum(1) > 0.5).float()
        history = torch.cat([history[:, 1:], actions[:, None]], dim=1)
        next_states = _state(user_pref, item_feats, history)
        filled = slice(step * n_users, (step + 1) * n_users)
        buffer["state"][filled] = states.detach()
        buffer["action"][filled] = actions
        buffer["reward"][filled] = reward
        buffer["next_state"][filled] = next_states
        rewards.append(reward.mean())

        idx = (sample[step] * filled.stop).long()
        with torch.no_grad():
            y = buffer["reward"][idx] + GAMMA * _q_values(target_net, buffer["next_state"][idx]).max(1)[0]
        q_sa = _q_values(q_net, buffer["state"][idx]).gather(1, buffer["action"][idx, None]).squeeze(1)
        loss = F.smooth_l1_loss(q_sa, y)

        opt.zero_grad()
        loss.backward()
        opt.step()
        epoch_loss += loss.detach()
        losses.append(loss.detach())
        if step % d["sync_every"] == 0:
            target_net = [w.detach().clone() for w in q_net]
    return {"loss": torch.stack(losses), "reward": torch.stack(rewards),
            "epoch_loss": epoch_loss, "weights": [w.detach() for w in q_net]}
