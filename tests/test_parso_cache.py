"""jedi's parse cache on disk is shared by processes (`paef_jupyter.static.parso_cache`): a cache
file another process is still writing is a miss, not a failed inference; this process's cache
files appear whole or not at all."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import parso
import pytest
from parso import cache
from parso.file_io import FileIO

from paef_jupyter.static.parso_cache import make_safe


@pytest.fixture
def guarded() -> None:
    make_safe()


def _cached_path(source: Path, cache_dir: Path) -> Path:
    return Path(cache._get_hashed_path(parso.load_grammar()._hashed, str(source), cache_path=cache_dir))


def test_a_cache_file_being_written_is_a_miss(tmp_path: Path, guarded: None) -> None:
    source = tmp_path / "helpers.py"
    source.write_text("def f(x):\n    return x + 1\n")
    cache_dir = tmp_path / "cache"
    entry = _cached_path(source, cache_dir)
    entry.write_bytes(b"\x80\x05\x95")  # the first bytes of a pickle another process is writing
    os.utime(entry, (source.stat().st_mtime + 10,) * 2)  # newer than its source: parso trusts it
    grammar = parso.load_grammar()
    # Without the guard: EOFError / UnpicklingError out of the parse, i.e. out of jedi's inference.
    assert cache.load_module(grammar._hashed, FileIO(str(source)), cache_path=cache_dir) is None
    module = grammar.parse(path=str(source), cache=True, cache_path=cache_dir)
    assert [f.name.value for f in module.iter_funcdefs()] == ["f"]


def test_a_cache_file_is_written_whole_or_not_at_all(tmp_path: Path, guarded: None) -> None:
    source = tmp_path / "helpers.py"
    source.write_text("x = 1\n")
    cache_dir = tmp_path / "cache"
    entry = _cached_path(source, cache_dir)

    class Unpicklable:
        def __reduce__(self):
            raise RuntimeError("stopped half-way")

    item = cache._NodeCacheItem(["a" * 100_000, Unpicklable()], [])
    with pytest.raises(RuntimeError, match="half-way"):
        cache._save_to_file_system(parso.load_grammar()._hashed, str(source), item, cache_path=cache_dir)
    # Without the guard the entry exists, truncated, and other processes would load it.
    assert not entry.exists()
    assert [p.name for p in cache_dir.rglob("*")] == [entry.parent.name]  # no temporary file left

    grammar = parso.load_grammar()
    grammar.parse(path=str(source), cache=True, cache_path=cache_dir)
    cache.parser_cache[grammar._hashed].pop(FileIO(str(source)).path)  # read back from disk, not from memory
    assert cache.load_module(grammar._hashed, FileIO(str(source)), cache_path=cache_dir) is not None


def test_the_oracle_installs_the_guard_before_jedi_parses() -> None:
    """In a process of its own: here the tests above have installed it already."""
    code = ("from parso import cache\n"
            "from paef_jupyter.static.types import JediOracle\n"
            "before = cache._load_from_file_system.__name__, cache._save_to_file_system.__name__\n"
            "answer = JediOracle('import torch\\nx = torch.zeros(1)\\nx\\n').type_name(3, 0)\n"
            "print(before, (cache._load_from_file_system.__name__, cache._save_to_file_system.__name__), answer)\n")
    env = dict(os.environ, PYTHONPATH=str(Path(__file__).resolve().parents[1]))
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120, env=env)
    assert done.stdout.split() == ["('_load_from_file_system',", "'_save_to_file_system')",
                                   "('load_or_miss',", "'save_whole')", "torch._tensor.Tensor"], done.stderr
