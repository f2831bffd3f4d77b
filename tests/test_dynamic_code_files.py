"""Which code files a profiled cell's frames belong to (`code_files.cell_resolver`)."""

from __future__ import annotations

import linecache

from paef_jupyter.dynamic.code_files import cell_resolver
from paef_jupyter.model import CellRef

CELL = "%%paef\nfor step in range(3):\n    total = step * 2\n"
REF = CellRef(path="In[7]")


def _cache(name: str, text: str) -> str:
    linecache.cache[name] = (len(text), None, text.splitlines(True), name)
    return name


def test_the_cell_is_found_by_its_name_or_by_its_text_and_nothing_longer_than_it_is():
    body = _cache("<paef-test-body>", CELL.split("\n", 1)[1])
    earlier = _cache("<paef-test-earlier>", "def helper():\n    return 1\n")
    same = _cache("<paef-test-same>", CELL.split("\n", 1)[1])
    longer = _cache("<paef-test-longer>", CELL.split("\n", 1)[1] + "print(total)\n" * 50)
    names = {body: REF, earlier: CellRef(path="In[3]")}
    resolve = cell_resolver(CELL, REF, names.get)
    found = resolve(body)
    assert found is not None and found.ref == REF and found.offset == 1  # the %%paef line
    found = resolve(earlier)
    assert found is not None and found.ref == CellRef(path="In[3]") and found.offset == 0
    found = resolve(same)  # compiled under a name nobody mapped: found by its text
    assert found is not None and found.ref == REF and found.offset == 1
    assert resolve(longer) is None  # more lines than the cell: never its code
    assert resolve(linecache.__file__) is None and resolve("<not cached>") is None
