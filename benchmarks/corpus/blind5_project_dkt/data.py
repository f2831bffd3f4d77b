"""Student interaction logs as a dict of per-student lists (question ids and correctness),
the way a CSV of (user, skill, correct) rows is usually grouped, and a Dataset that one-hot
encodes each student's sequence when it is read."""
import random

import torch
from torch.utils.data import DataLoader, Dataset


def simulate_logs(n_students, n_skills, seed, max_len=20):
    rng = random.Random(seed)
    difficulty = [rng.random() for _ in range(n_skills)]
    logs = {"skill": {}, "correct": {}}
    for s in range(n_students):
        ability, skills, correct = rng.random(), [], []
        for _ in range(rng.randint(5, max_len)):
            q = rng.randrange(n_skills)
            skills.append(q)
            correct.append(int(rng.random() < 0.5 + 0.5 * (ability - difficulty[q])))
            ability = min(1.0, ability + 0.02)
        logs["skill"][s], logs["correct"][s] = skills, correct
    return logs


class InteractionDataset(Dataset):
    def __init__(self, logs, students, n_skills, max_len=20):
        self.logs, self.students, self.n_skills, self.max_len = logs, students, n_skills, max_len

    def __len__(self):
        return len(self.students)

    def __getitem__(self, i):
        s = self.students[i]
        skills, correct = self.logs["skill"][s], self.logs["correct"][s]
        x = torch.zeros(self.max_len, 2 * self.n_skills)
        for t, (q, a) in enumerate(zip(skills[:-1], correct[:-1])):  # paef: expect elementwise-loop
            x[t, q + a * self.n_skills] = 1.0
        target_skill = torch.tensor(skills[1:] + [0] * (self.max_len - len(skills) + 1))  # paef: ok list-to-tensor
        target = torch.tensor(correct[1:] + [-1] * (self.max_len - len(correct) + 1), dtype=torch.float32)  # paef: ok list-to-tensor
        return x, target_skill, target


def make_loader(logs, students, n_skills, batch_size, shuffle):
    return DataLoader(InteractionDataset(logs, students, n_skills), batch_size=batch_size, shuffle=shuffle)  # paef: ok pageable-transfer; ok sync-dataloader
