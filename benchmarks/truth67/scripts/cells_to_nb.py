"""Write FOO.ipynb from FOO_cells.py (cells separated by '# %%' lines)."""
import json, sys
for p in sys.argv[1:]:
    cells = open(p).read().split("# %%\n")
    nb = {"nbformat": 4, "nbformat_minor": 5,
          "metadata": {"kernelspec": {"name": "python3", "display_name": "Python 3", "language": "python"}},
          "cells": [{"cell_type": "code", "id": f"c{i}", "metadata": {}, "execution_count": None, "outputs": [],
                     "source": c.rstrip("\n").splitlines(keepends=True)} for i, c in enumerate(cells)]}
    json.dump(nb, open(p.replace("_cells.py", ".ipynb"), "w"), indent=1)
