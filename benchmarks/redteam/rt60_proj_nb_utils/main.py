# corpus: runnable
# Red team 60 (blind): a small project whose analysis lives in a notebook (`analysis.ipynb`, `from utils import
# ...`); this entry runs the notebook's code cells in order in one namespace, as `%run analysis.ipynb` does.
import json
from pathlib import Path

namespace = {'__name__': '__main__'}
cells = json.loads(Path(__file__).with_name('analysis.ipynb').read_text())['cells']
for number, cell in enumerate(cells):
    if cell['cell_type'] == 'code':
        exec(compile(''.join(cell['source']), f'analysis.ipynb[cell {number}]', 'exec'), namespace)
