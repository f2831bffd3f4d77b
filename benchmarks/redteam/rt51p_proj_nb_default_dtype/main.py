# corpus: runnable
# Red team 51 probe (NOT blind, written after first contact): a project whose analysis lives in a notebook
# (analysis.ipynb) importing a local settings module (config.py) that sets the default dtype to float64 at
# import. main.py runs the notebook's code cells in order in one namespace, as a kernel would.
import json
import os

here = os.path.dirname(os.path.abspath(__file__))
with open(os.path.join(here, 'analysis.ipynb')) as f:
    cells = json.load(f)['cells']
namespace = {'__name__': '__main__'}
for cell in cells:
    if cell['cell_type'] == 'code':
        exec(compile(''.join(cell['source']), 'analysis.ipynb', 'exec'), namespace)
