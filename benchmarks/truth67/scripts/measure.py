"""Profile each truth67 program with `paef profile --json`: `measure.py WORKTREE TAG [filter...]`."""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[3]))
from benchmarks.truth_round import measure  # noqa: E402

ROUND = Path(__file__).resolve().parents[1]
PROGRAMS = ['b01_two_in_one_loop.py',
            'b02_short_steps_dict_as_list.py',
            'b03_long_steps_cpu_function.py',
            'b04_eval_loop_elementwise.py',
            'b05_notebook_split_operator_fusion.ipynb',
            'b06_project/train.py',
            'b07_while_list_to_tensor.py',
            'b08_trainer_graph_retention.py',
            'clean/k1_short_steps_sliced_tensors.py',
            'clean/k2_notebook_split_cells.ipynb',
            'clean/k3_plateau_early_stopping.py']

measure(ROUND, PROGRAMS, sys.argv[1:])
