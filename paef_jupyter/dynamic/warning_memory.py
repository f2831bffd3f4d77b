"""Python's memory of warnings already shown, kept across paef's own changes to the filters.

Any change to `warnings.filters` (`filterwarnings`, entering or leaving `catch_warnings`)
bumps a version that makes every module's `__warningregistry__` forget what it has shown, so
a warning the user saw once ("default" action: once per location) shows again. A profiled cell
must print what the plain cell prints: paef re-stamps the registries that its own change
invalidated and nothing else touched, so only the program's own filter changes count.
"""

from __future__ import annotations

import contextlib
import sys
import warnings
from typing import Any, Iterator

_PROBE = "paef: filters version probe"


def _ignore(*args: Any, **kwargs: Any) -> None:
    return None


def filters_version() -> int | None:
    """The filters' current version, as a registry records it (a probe warning that no one sees)."""
    probe: dict = {}
    show, warnings.showwarning = warnings.showwarning, _ignore
    try:
        with contextlib.suppress(Warning):  # an "error" filter raises the probe
            warnings.warn_explicit(_PROBE, PendingDeprecationWarning, "<paef>", 0, registry=probe)
    finally:
        if warnings.showwarning is _ignore:
            warnings.showwarning = show
    version = probe.get("version")
    return version if isinstance(version, int) else None


def _registries() -> Iterator[dict]:
    for module in list(sys.modules.values()):
        try:
            registry = vars(module).get("__warningregistry__")
        except TypeError:  # an object without __dict__ standing in sys.modules
            continue
        if isinstance(registry, dict):
            yield registry


def restamp(before: int | None) -> None:
    """Registries still at `before` (untouched since) adopt the current version, keeping what
    they remember."""
    after = filters_version()
    if before is None or after is None or after == before:
        return
    for registry in _registries():
        if registry.get("version") == before:
            registry["version"] = after


@contextlib.contextmanager
def kept() -> Iterator[None]:
    """Filter changes made inside (paef's own, or a library's `catch_warnings`) forget nothing."""
    before = filters_version()
    try:
        yield
    finally:
        restamp(before)
