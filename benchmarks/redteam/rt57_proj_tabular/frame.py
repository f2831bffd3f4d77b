"""A tiny column table: enough of a DataFrame for this project."""
import math
import random


class Frame:
    def __init__(self, columns):
        self.columns = {k: list(v) for k, v in columns.items()}

    def __len__(self):
        return len(next(iter(self.columns.values())))

    def __getitem__(self, name):
        return self.columns[name]

    def take(self, rows):
        return Frame({k: [v[r] for r in rows] for k, v in self.columns.items()})

    def fillna(self, name, value):
        self.columns[name] = [value if (x is None or (isinstance(x, float) and math.isnan(x))) else x
                              for x in self.columns[name]]
        return self


def make_frame(n, seed):
    rng = random.Random(seed)
    cities = ['oslo', 'lima', 'pune', 'kyiv', 'baku']
    rows = {'age': [], 'income': [], 'city': [], 'visits': [], 'label': []}
    for i in range(n):
        age = rng.uniform(18, 70)
        income = rng.lognormvariate(3.0, 0.5) if i % 17 else float('nan')
        city = rng.choice(cities)
        visits = rng.randint(0, 12)
        score = 0.04 * (age - 40) + 0.1 * (income if income == income else 20) / 10 + (city in ('oslo', 'kyiv')) * 0.8 \
            + 0.15 * visits - 1.3 + rng.gauss(0, 0.4)
        rows['age'].append(age)
        rows['income'].append(income)
        rows['city'].append(city)
        rows['visits'].append(visits)
        rows['label'].append(1 if score > 0 else 0)
    return Frame(rows)
