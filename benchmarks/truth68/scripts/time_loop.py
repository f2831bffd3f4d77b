"""Unprofiled loop time of each truth68 program and its fixed twin: `time_loop.py N [filter...]`."""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[3]))
from benchmarks.truth_round import time_loops  # noqa: E402

ROUND = Path(__file__).resolve().parents[1]
LOOPS = {'c03_getitem_dict_as_list.py': 'range(2)',
         'c06_forward_elementwise_loop.py': 'range(2)'}

time_loops(ROUND, LOOPS, sys.argv[1:])
