"""Plain `isinstance` for libcst's node classes.

libcst's node classes are ABCs (`CSTNode(ABC)`): an `isinstance(node, cst.Name)` that fails, the
usual answer in a walk, runs `ABCMeta.__instancecheck__` (registry, caches: about 20x a plain
class's test). The rules ask hundreds of thousands of such questions per 100-line cell, a third of
the analysis time. libcst registers no virtual subclass and defines no subclass hook, so for its
classes the ABC answer is always the plain type answer: `use_plain_checks` gives them a metaclass
that asks `type`'s question directly. Classes later derived from them (`annotated.Assign`)
inherit it; a class with a registered virtual subclass or a hook keeps `ABCMeta`.
"""

from __future__ import annotations

import abc

import libcst as cst


class PlainChecks(abc.ABCMeta):
    __instancecheck__ = type.__instancecheck__  # type: ignore[assignment]
    __subclasscheck__ = type.__subclasscheck__  # type: ignore[assignment]


def _plain_answers(cls: type) -> bool:
    """Whether the ABC machinery answers exactly as `type` does for `cls`."""
    dump = getattr(abc, "_get_dump", None)  # CPython's C `_abc`: (registry, cache, negative cache, version)
    if dump is None or dump(cls)[0]:
        return False
    return all("__subclasshook__" not in vars(k) for k in cls.__mro__ if k is not object)


def use_plain_checks() -> int:
    """Give every libcst node class that has the plain answers the plain checks; how many now have them."""
    done, stack, seen = 0, [cst.CSTNode], set()
    while stack:
        cls = stack.pop()
        if cls in seen:
            continue
        seen.add(cls)
        stack.extend(cls.__subclasses__())
        if type(cls) is abc.ABCMeta and _plain_answers(cls):
            cls.__class__ = PlainChecks  # type: ignore[assignment]
        done += type(cls) is PlainChecks
    return done
