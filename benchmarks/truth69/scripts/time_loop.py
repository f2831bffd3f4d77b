"""Unprofiled loop time of each truth69 program and its fixed twin: `time_loop.py N [filter...]`."""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[3]))
from benchmarks.truth_round import time_loops  # noqa: E402

ROUND = Path(__file__).resolve().parents[1]
LOOPS = {'d01_collate_python_padding.py': 'range(3)',
         'd02_iterable_per_item_features.py': 'range(3)',
         'd03_replay_deque_tuples.py': 'range(300)',
         'd04_notebook_helper_cells.py': 'range(3)',
         'd05_getitem_dict_as_list.py': 'range(3)',
         'd06_rows_to_tensor.py': 'range(3)',
         'd07_eval_numpy_round_trip.py': '["val", "test"]',
         'd08_project/train.py': 'range(2)'}

time_loops(ROUND, LOOPS, sys.argv[1:])
