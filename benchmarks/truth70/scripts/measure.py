"""Profile each truth70 program with `paef profile --json`: `measure.py WORKTREE TAG [filter...]`."""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[3]))
from benchmarks.truth_round import measure  # noqa: E402

ROUND = Path(__file__).resolve().parents[1]
PROGRAMS = ['e01_mask_numpy_check.py',
            'e02_metric_item_per_sample.py',
            'e03_project/train.py',
            'e04_notebook_row_softmax.ipynb',
            'e05_per_sample_numpy_features.py',
            'e06_collate_dict_of_lists.py',
            'e07_epoch_loss_tensor.py',
            'e08_mlp_hand_layernorm_gelu.py',
            'clean/k1_bf16_autocast_accumulation.py',
            'clean/k2_early_stopping_checkpoint.py']

measure(ROUND, PROGRAMS, sys.argv[1:])
