# corpus: runnable
"""Entry point of the agent project: a host-side environment loop that pushes transitions and calls
`agent.update_parameters` of agent.py on every step once the memory holds a batch."""
import numpy as np
import torch

from agent import Agent, ReplayMemory


def main():
    torch.manual_seed(0)
    rng = np.random.default_rng(0)
    agent = Agent(3, 1, torch.cuda.is_available())
    memory = ReplayMemory(256)
    state = rng.normal(size=3).astype(np.float32)
    losses = []
    for step in range(120):
        action = np.tanh(state[:1])
        next_state = (0.9 * state + 0.1 * rng.normal(size=3)).astype(np.float32)
        reward = float(-np.abs(next_state).sum())
        memory.push(state, action, reward, next_state, 1.0)
        state = next_state
        if len(memory) > 32:
            q1, q2 = agent.update_parameters(memory, 32)
            losses.append(q1 + q2)
    print(f"mean loss {np.mean(losses):.6f}")


if __name__ == "__main__":
    main()
