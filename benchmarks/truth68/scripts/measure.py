"""Profile each truth68 program with `paef profile --json`: `measure.py WORKTREE TAG [filter...]`."""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[3]))
from benchmarks.truth_round import measure  # noqa: E402

ROUND = Path(__file__).resolve().parents[1]
PROGRAMS = ['c03_getitem_dict_as_list.py',
            'c06_forward_elementwise_loop.py',
            'clean/k1_iterable_stream.py']

measure(ROUND, PROGRAMS, sys.argv[1:])
