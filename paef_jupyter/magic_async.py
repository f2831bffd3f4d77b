"""`%%paef` on a cell with top-level `await` (or an async comprehension): run as IPython runs it.

IPython turns `%%paef` into a synchronous `run_cell_magic` call, which cannot await the
body; and awaiting it on a loop of our own would break what the cell shares with the
kernel's loop (futures, queues, tasks made by earlier cells). So such a cell is rewritten,
after IPython's own transforms, into an `await` of `paef_cell`: IPython (and ipykernel) then
run it through their async path, as a task on the kernel's event loop, and the magic's steps
(`run_steps`) await the body there, profiled like any cell. Only where the plain cell would
be awaited: with `%autoawait` off, the body's `await` is a SyntaxError as it is without the
magic.
"""

from __future__ import annotations

import ast
import inspect
from typing import Any

from .run_steps import run_awaiting

_CALL = "get_ipython().run_cell_magic('paef', "


def install(shell: Any) -> None:
    if transform not in shell.input_transformers_post:
        shell.input_transformers_post.append(transform)


def uninstall(shell: Any) -> None:
    while transform in shell.input_transformers_post:
        shell.input_transformers_post.remove(transform)


def transform(lines: list[str]) -> list[str]:
    """IPython's transformed `%%paef` cell -> an awaited `paef_cell`, if its body awaits."""
    if len(lines) != 1 or not lines[0].startswith(_CALL):
        return lines
    from IPython import get_ipython

    shell = get_ipython()
    if shell is None or not getattr(shell, "autoawait", False):
        return lines
    try:
        call = ast.parse(lines[0]).body[0].value
        line, body = (ast.literal_eval(arg) for arg in call.args[1:3])
    except (SyntaxError, ValueError, AttributeError, IndexError, TypeError):
        return lines
    if not isinstance(line, str) or not isinstance(body, str) or not needs_await(shell, body):
        return lines
    return [f"await __import__('paef_jupyter.magic_async', fromlist=['_']).paef_cell(get_ipython(), {line!r}, {body!r})\n"]


def needs_await(shell: Any, body: str) -> bool:
    """Whether IPython would await this cell body (IPython's own test: it compiles to a
    coroutine with top-level await allowed)."""
    if "await" not in body and "async" not in body:
        return False  # the common case, without compiling the body
    try:
        code = compile(shell.transform_cell(body), "<paef>", "exec", flags=ast.PyCF_ALLOW_TOP_LEVEL_AWAIT)
    except (SyntaxError, ValueError, MemoryError):
        return False  # the magic reports it as IPython would
    return bool(code.co_flags & inspect.CO_COROUTINE)


async def paef_cell(shell: Any, line: str, body: str) -> Any:
    """`%%paef` of a body that awaits: the magic's steps, the body awaited between them."""
    __tracebackhide__ = True  # noqa: F841 - IPython hides this frame in tracebacks
    magics = shell.magics_manager.registry["PaefMagics"]
    ns = shell.user_ns
    return await run_awaiting(magics._cell_steps(line, body, awaited=True), lambda code: code.run_async(ns))
