"""Unprofiled loop time of each truth67 program and its fixed twin: `time_loop.py N [filter...]`."""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[3]))
from benchmarks.truth_round import time_loops  # noqa: E402

ROUND = Path(__file__).resolve().parents[1]
# program -> the header of the loop whose time is measured
LOOPS = {'b01_two_in_one_loop.py': 'range(30)',
         'b02_short_steps_dict_as_list.py': 'range(800)',
         'b03_long_steps_cpu_function.py': 'range(4)',
         'b04_eval_loop_elementwise.py': 'range(3)',
         'b05_notebook_split_operator_fusion_cells.py': 'range(2)',
         'b06_project/train.py': 'range(2)',
         'b07_while_list_to_tensor.py': 'while step < 60:',
         'b08_trainer_graph_retention.py': 'range(2)'}

time_loops(ROUND, LOOPS, sys.argv[1:])
