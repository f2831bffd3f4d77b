import importlib

import state


class Annealer:
    def step(self):
        setattr(state, "scale", state.scale * 3)


def grow():
    importlib.import_module("state").sizes.append(9)
