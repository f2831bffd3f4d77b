"""Profile each truth66 program with `paef profile --json`: `measure.py WORKTREE TAG [filter...]`."""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[3]))
from benchmarks.truth_round import measure  # noqa: E402

ROUND = Path(__file__).resolve().parents[1]
PROGRAMS = ['a01_helper_list_to_tensor.py',
            'a02_class_ping_pong.py',
            'a03_getitem_dict_as_list.py',
            'a04_getitem_sync_dataloader.py',
            'a05_collate_redundant_tensor.py',
            'a06_module_method_operator_fusion.py',
            'a07_logger_cpu_function.py',
            'a08_notebook_graph_retention.ipynb',
            'a09_notebook_eval_without_no_grad.ipynb',
            'a10_project/train.py',
            'a11_class_cpu_then_move.py',
            'a12_helper_elementwise_loop.py',
            'clean/c1_lightning_style_by_hand.py',
            'clean/c2_accumulation_warmup_cosine.py',
            'clean/c3_callbacks_swa_ema.py',
            'clean/c4_padded_sequences_inference_mode.py']

measure(ROUND, PROGRAMS, sys.argv[1:])
