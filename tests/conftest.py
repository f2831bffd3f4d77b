import os
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

import pytest  # noqa: E402

CORPUS = Path(__file__).resolve().parents[1] / "benchmarks" / "corpus"
MAX_WORKERS = 4  # each worker imports torch and starts kernels; more buys little on this suite
# Files that share one costly session fixture (the corpus rewrite pass) run on one worker, so
# it is built once; so do the files that start Jupyter kernels or servers: two workers picking
# kernel ports at once can pick the same one ("Address already in use"). The longest groups
# are scheduled first (`--no-loadscope-reorder` keeps this order).
KERNELS = ("test_ui_browser.py", "test_cell_edit.py", "test_demo_notebooks.py", "test_magic.py",
           "test_magic_async.py", "test_magic_interrupt.py", "test_magic_memory.py", "test_bridge.py")
SHARED = {"test_rewrite_safety.py": "corpus-rewrites", "test_fix_idempotent.py": "corpus-rewrites",
          **dict.fromkeys(KERNELS, "kernels")}
FIRST = ("kernels", "corpus-rewrites", "test_corpus.py")


def pytest_xdist_auto_num_workers(config: pytest.Config) -> int:
    return max(1, min(MAX_WORKERS, len(os.sched_getaffinity(0))))


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Under `-n --dist loadgroup`, a test file runs whole on one worker (its module fixtures
    are built once), as do the files of one `SHARED` group."""
    group = {id(item): SHARED.get(item.path.name, item.path.name) for item in items}
    rank = {name: i for i, name in enumerate(FIRST)}
    items.sort(key=lambda item: rank.get(group[id(item)], len(FIRST)))  # stable: order kept within
    for item in items:
        item.add_marker(pytest.mark.xdist_group(group[id(item)]))


@pytest.fixture(scope="session")
def corpus_rewrites(tmp_path_factory: pytest.TempPathFactory) -> dict:
    """Every corpus program rewritten once (name -> `corpus_rewrites.CorpusRewrite`): its
    safety (`test_rewrite_safety`) and its stability (`test_fix_idempotent`) from one pass."""
    from corpus_rewrites import corpus_programs, rewrite_corpus

    return rewrite_corpus(corpus_programs(CORPUS), tmp_path_factory.mktemp("corpus-rewrites"))
