"""jedi inside a kernel's process, touching nothing the user's code sees.

jedi's in-process mode (`InterpreterEnvironment`) looks modules up by swapping `sys.path` for
its own list and imports compiled modules it is asked about. Run from the warm-up thread beside
a cell, both leaked into the cell: a `sys.path.insert` made during the swap was lost (the
cell's next import failed), and imports started halfway through the user's own. Here a lookup
hands jedi's path to the path finder instead, and only modules the process has already
imported are inspected (the kernel's user imported them; anything else stays unknown).
"""

from __future__ import annotations

import sys
from functools import partial
from typing import Any


def kernel_environment() -> Any:
    from jedi.api.environment import InterpreterEnvironment
    from jedi.inference.compiled.subprocess import InferenceStateSameProcess

    class _SameProcess(InferenceStateSameProcess):  # type: ignore[misc]
        def __getattr__(self, name: str) -> Any:
            own = _FUNCTIONS.get(name)
            if own is None:
                return super().__getattr__(name)
            return partial(own, self._inference_state_weakref())

    class KernelEnvironment(InterpreterEnvironment):  # type: ignore[misc]
        def get_inference_state_subprocess(self, inference_state: Any) -> Any:
            return _SameProcess(inference_state)

        def get_sys_path(self) -> list[str]:
            return list(sys.path)

    return KernelEnvironment()


def _load_module(inference_state: Any, dotted_name: str, sys_path: list[str]) -> Any:
    from jedi.inference.compiled.access import create_access_path

    module = sys.modules.get(dotted_name)
    return None if module is None else create_access_path(inference_state, module)


def _get_module_info(inference_state: Any, sys_path: list[str] | None = None, full_name: str | None = None,
                     **kwargs: Any) -> Any:
    from jedi.inference.compiled.subprocess.functions import _find_module

    if sys_path is not None and kwargs.get("path") is None:
        kwargs["path"] = list(sys_path)  # searched by the path finder only, as the swap did
    try:
        return _find_module(full_name=full_name, **kwargs)
    except ImportError:
        return None, None


_FUNCTIONS = {"load_module": _load_module, "get_module_info": _get_module_info}
