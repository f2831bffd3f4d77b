import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

import pytest  # noqa: E402

CORPUS = Path(__file__).resolve().parents[1] / "benchmarks" / "corpus"


@pytest.fixture(scope="session")
def corpus_rewrites(tmp_path_factory: pytest.TempPathFactory) -> dict:
    """Every corpus program rewritten once (name -> `corpus_rewrites.CorpusRewrite`): its
    safety (`test_rewrite_safety`) and its stability (`test_fix_idempotent`) from one pass."""
    from corpus_rewrites import corpus_programs, rewrite_corpus

    return rewrite_corpus(corpus_programs(CORPUS), tmp_path_factory.mktemp("corpus-rewrites"))
