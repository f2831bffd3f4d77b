"""Handlers shared by the experiments: a schedule that anneals its own fields, and a meter."""


class Schedule:
    """Class-balance floor and label temperature, annealed by handlers during training."""

    def __init__(self, floor, temperature):
        self.floor = floor
        self.temperature = temperature

    def anneal(self, engine):
        self.floor = self.floor * 0.8
        self.temperature = max(0.5, self.temperature - 0.25)


def attach_meter(engine, meter):
    @engine.on("iteration_completed")
    def _record(eng):
        meter.append(eng.state.output)
    return _record
