"""Profile each truth69 program with `paef profile --json`: `measure.py WORKTREE TAG [filter...]`."""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[3]))
from benchmarks.truth_round import measure  # noqa: E402

ROUND = Path(__file__).resolve().parents[1]
PROGRAMS = ['d01_collate_python_padding.py',
            'd02_iterable_per_item_features.py',
            'd03_replay_deque_tuples.py',
            'd04_notebook_helper.ipynb',
            'd05_getitem_dict_as_list.py',
            'd06_rows_to_tensor.py',
            'd07_eval_numpy_round_trip.py',
            'd08_project/train.py',
            'clean/k1_onecycle_clip_log_every.py',
            'clean/k2_no_grad_eval_device_metric.py']

measure(ROUND, PROGRAMS, sys.argv[1:])
