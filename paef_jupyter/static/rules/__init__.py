"""The rule catalogue: every module here defines one `Rule` subclass (one antipattern)."""

from __future__ import annotations

import importlib
import pkgutil

from .base import Rule


def _discover() -> dict[str, type[Rule]]:
    rules: dict[str, type[Rule]] = {}
    for info in sorted(pkgutil.iter_modules(__path__), key=lambda i: i.name):
        if info.name == "base":
            continue
        module = importlib.import_module(f"{__name__}.{info.name}")
        for value in vars(module).values():
            if isinstance(value, type) and issubclass(value, Rule) and value is not Rule and value.__module__ == module.__name__:
                rules[value.id] = value
    return rules


RULES: dict[str, type[Rule]] = _discover()

__all__ = ["RULES", "Rule"]
