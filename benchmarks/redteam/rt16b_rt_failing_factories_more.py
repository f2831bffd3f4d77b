# corpus: runnable
# Second wave on factories that fail on constant input: a negative size, an `arange` whose
# bounds contradict its step, strings in a list, an `eye` of a negative size; the error is
# caught around the loop after effects the loop ran first.
import torch

torch.set_num_threads(1)
for label, make in (("zeros", lambda: torch.zeros(-2)), ("arange", lambda: torch.arange(5, 0)),
                    ("strings", lambda: torch.tensor([1, "a"]))):
    seen = []
    try:
        for step in range(2):
            seen.append(step)
            make()
    except (RuntimeError, ValueError, TypeError) as e:
        print(label, seen, type(e).__name__)

seen = []
try:
    for step in range(2):
        seen.append(step)
        t = torch.zeros(-2)
except RuntimeError as e:
    print("zeros inline", seen, type(e).__name__)

seen = []
try:
    for step in range(2):
        seen.append(step)
        t = torch.arange(5, 0)
except RuntimeError as e:
    print("arange inline", seen, type(e).__name__)

seen = []
try:
    for step in range(2):
        seen.append(step)
        t = torch.tensor([1, "a"])
except (TypeError, ValueError) as e:
    print("strings inline", seen, type(e).__name__)

seen = []
try:
    for step in range(2):
        seen.append(step)
        t = torch.eye(-1)
except RuntimeError as e:
    print("eye inline", seen, type(e).__name__)
