import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

import pytest  # noqa: E402

from paef_jupyter.static.types import JediOracle  # noqa: E402

# The suite analyses every rule fixture and corpus program several ways (one rule, all rules,
# rewritten, re-checked); the same source asks jedi the same questions each time.
JediOracle.share_answers()

CORPUS = Path(__file__).resolve().parents[1] / "benchmarks" / "corpus"


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
