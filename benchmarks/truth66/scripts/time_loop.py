"""Unprofiled loop time of each truth66 program and its fixed twin: `time_loop.py N [filter...]`."""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[3]))
from benchmarks.truth_round import time_loops  # noqa: E402

ROUND = Path(__file__).resolve().parents[1]
# program -> the header of the loop whose time is measured
LOOPS = {'a01_helper_list_to_tensor.py': 'range(3)',
         'a02_class_ping_pong.py': 'range(3)',
         'a03_getitem_dict_as_list.py': 'range(2)',
         'a04_getitem_sync_dataloader.py': 'range(2)',
         'a05_collate_redundant_tensor.py': 'range(3)',
         'a06_module_method_operator_fusion.py': 'range(2)',
         'a07_logger_cpu_function.py': 'range(2)',
         'a08_notebook_graph_retention_cells.py': 'range(2)',
         'a09_notebook_eval_without_no_grad_cells.py': 'range(len(X_test))',
         'a10_project/train.py': 'range(3)',
         'a11_class_cpu_then_move.py': 'range(60)',
         'a12_helper_elementwise_loop.py': 'range(2)'}

time_loops(ROUND, LOOPS, sys.argv[1:])
