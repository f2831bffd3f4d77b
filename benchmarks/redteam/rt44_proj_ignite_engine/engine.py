"""An ignite-like event engine: handlers are registered with a decorator and fired by name."""
from collections import defaultdict


class State:
    def __init__(self):
        self.iteration = 0
        self.epoch = 0
        self.output = None


class Engine:
    def __init__(self):
        self.state = State()
        self._handlers = defaultdict(list)

    def on(self, event, every=1):
        def register(fn):
            self._handlers[event].append((every, fn))
            return fn
        return register

    def fire(self, event):
        count = self.state.iteration if event.startswith("iteration") else self.state.epoch
        for every, fn in self._handlers[event]:
            if count % every == 0:
                fn(self)
