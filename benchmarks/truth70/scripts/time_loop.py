"""Unprofiled loop time of each truth70 program and its fixed twin: `time_loop.py N [filter...]`."""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[3]))
from benchmarks.truth_round import time_loops  # noqa: E402

ROUND = Path(__file__).resolve().parents[1]
LOOPS = {'e01_mask_numpy_check.py': 'range(2)',
         'e02_metric_item_per_sample.py': 'range(3)',
         'e03_project/train.py': 'range(2)',
         'e04_notebook_row_softmax_cells.py': 'range(3)',
         'e05_per_sample_numpy_features.py': 'range(2)',
         'e06_collate_dict_of_lists.py': 'range(2)',
         'e07_epoch_loss_tensor.py': 'range(3)',
         'e08_mlp_hand_layernorm_gelu.py': 'range(2)'}

time_loops(ROUND, LOOPS, sys.argv[1:])
