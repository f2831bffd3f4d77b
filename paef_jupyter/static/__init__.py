"""The static analyzer: facts (the metadata module) and the antipattern rules."""

from __future__ import annotations

import threading

from .node_types import use_plain_checks
from .types import JediOracle

use_plain_checks()  # a third of the analysis is `isinstance` on libcst's ABCs (see node_types)


def warm(background: bool = True) -> threading.Thread | None:
    """Pay jedi's cold start (seconds) once, off the hot path."""
    if not background:
        JediOracle.warm()
        return None
    thread = threading.Thread(target=JediOracle.warm, name="paef-jedi-warm", daemon=True)
    thread.start()
    return thread
