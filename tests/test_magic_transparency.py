"""A notebook prints the same with `%%paef` on every cell as without (real kernels, nbclient).

The whole corpus is `python -m benchmarks.magic_transparency`; here one notebook whose
DataLoader warns once per location: a profiled window once made Python forget the warnings it
had shown, and the cell printed one twice.
"""

from __future__ import annotations

import pytest

from benchmarks import magic_transparency


@pytest.mark.timeout(600)
def test_a_corpus_notebook_prints_the_same_under_paef() -> None:
    [notebook] = [p for p in magic_transparency.runnable_notebooks() if p.name == "nb_clean_text_plot.ipynb"]
    result = magic_transparency.compare(notebook)
    assert result["cells"] >= 3
    assert result["differ"] == []
