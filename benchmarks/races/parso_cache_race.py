"""Two processes fill one empty jedi/parso cache at once (a fresh CI's two xdist workers).

Each process infers `torch.zeros(1)` with `jedi.settings.cache_directory` = CACHE and reports
its answer and every failure of parso's own cache loader (counted under paef's guard, if
installed). `guard`: `paef_jupyter.static.parso_cache.make_safe()` first. Run two at once:

    d=$(mktemp -d); for who in A B; do PYTHONPATH=. .venv/bin/python -m benchmarks.races.parso_cache_race $d $who guard & done; wait
"""

from __future__ import annotations

import sys
import time

import jedi
from parso import cache


def main(cache_dir: str, who: str, guard: bool) -> None:
    jedi.settings.cache_directory = cache_dir
    failures: list[str] = []
    load = cache._load_from_file_system

    def counted(hashed_grammar, path, p_time, cache_path=None):  # type: ignore[no-untyped-def]
        try:
            return load(hashed_grammar, path, p_time, cache_path=cache_path)
        except Exception as exc:
            failures.append(f"{type(exc).__name__}: {exc} ({path})")
            raise

    cache._load_from_file_system = counted
    if guard:
        from paef_jupyter.static.parso_cache import make_safe

        make_safe()
    start = time.monotonic()
    try:
        names = [n.full_name for n in jedi.Script("import torch\nx = torch.zeros(1)\nx").infer(3, 0)]
    except Exception as exc:
        names = [f"inference raised {exc!r}"]
    print(who, "guard" if guard else "no guard", f"{time.monotonic() - start:.0f} s", names, failures[:2], len(failures))


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2], sys.argv[3] == "guard")
