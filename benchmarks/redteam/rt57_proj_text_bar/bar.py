"""A minimal progress bar with a postfix dict (no tqdm needed)."""


class Bar:
    def __init__(self, total, every=3):
        self.total, self.n, self.every, self.postfix = total, 0, every, {}

    def set_postfix(self, **kw):
        self.postfix = kw

    def update(self, k=1):
        self.n += k
        if self.n % self.every == 0 or self.n == self.total:
            fields = ', '.join(f'{a}={b:.5f}' if isinstance(b, float) else f'{a}={b}' for a, b in self.postfix.items())
            print(f'[{self.n}/{self.total}] {fields}')
