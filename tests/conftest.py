import sys
from pathlib import Path
from typing import Iterator

sys.path.insert(0, str(Path(__file__).parent))

import pytest  # noqa: E402

from paef_jupyter.static.types import JediOracle  # noqa: E402
from suite_groups import group_of, passes_first, unit_order  # noqa: E402

# The suite analyses every rule fixture and corpus program several ways (one rule, all rules,
# rewritten, re-checked); the same source asks jedi the same questions each time.
JediOracle.share_answers()

CORPUS = Path(__file__).resolve().parents[1] / "benchmarks" / "corpus"

# `make test` runs the suite in two parts (scripts/test.sh): first everything else on two
# xdist workers, then these files alone. Their assertions read measured times (rankings,
# overheads, a line's share of an iteration): beside another worker they would measure it.
MEASURED = {
    "test_clean_programs.py", "test_ddp_profile.py", "test_demo_notebooks.py", "test_dynamic_api.py",
    "test_dynamic_backward_saving.py", "test_dynamic_busy_machine.py", "test_dynamic_collector.py",
    "test_dynamic_ranking.py", "test_dynamic_scalene.py", "test_jedi_wait.py", "test_magic.py",
    "test_magic_interrupt.py", "test_truth17.py", "test_truth18.py", "test_truth19.py", "test_warm.py",
}


@pytest.hookimpl(optionalhook=True)  # the parallel part's work units: `suite_groups.py`
def pytest_xdist_make_scheduler(config: pytest.Config, log: object) -> object:
    from xdist.scheduler import LoadScopeScheduling

    class Groups(LoadScopeScheduling):
        def _split_scope(self, nodeid: str) -> str:
            return group_of(nodeid)

        def _assign_work_unit(self, node: object) -> None:
            if not getattr(self, "_ordered", False):  # the first draw: the queue is complete
                self._ordered = True
                queue = dict(self.workqueue)
                self.workqueue.clear()
                self.workqueue.update((unit, queue[unit]) for unit in unit_order(queue))
            super()._assign_work_unit(node)

    return Groups(config, log)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        if item.path.name in MEASURED:
            item.add_marker(pytest.mark.measured)
    # A unit's tests run in collection order: its session-wide pass first, so that the jedi answers
    # it learns serve every other test of its group (else test_fix_idempotent's 300 fixture-output
    # checks ran before the rule fixtures' pool and asked jedi everything again).
    items[:] = passes_first(items)


@pytest.fixture(scope="session")
def corpus_rewrites(tmp_path_factory: pytest.TempPathFactory) -> dict:
    """Every corpus program rewritten once and run (name -> `corpus_rewrites.CorpusRewrite`):
    its safety (`test_rewrite_safety`), its stability (`test_fix_idempotent`) and its own run
    (`test_corpus`) from one pass."""
    from corpus_rewrites import rewrite_corpus

    return rewrite_corpus(CORPUS, tmp_path_factory.mktemp("corpus-rewrites"))


@pytest.fixture(scope="session")
def rule_fixture_rewrites() -> dict:
    """Every rule fixture rewritten by all rules (path -> `fixture_rewrites.FixtureRewrite`)."""
    from fixture_rewrites import rewrite_fixtures
    from rule_fixtures import FIXTURES

    return rewrite_fixtures(sorted(FIXTURES.glob("*/*.py")))


@pytest.fixture
def one_torch_thread() -> Iterator[None]:
    """Two OpenMP threads on a loaded 2-core box can be 100x slower: timings would be noise."""
    import torch

    before = torch.get_num_threads()
    torch.set_num_threads(1)
    yield
    torch.set_num_threads(before)
