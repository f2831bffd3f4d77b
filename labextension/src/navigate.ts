/**
 * Navigation in paef reports shown in a notebook, for live views and static reports alike.
 *
 * Everything here reads the report's own markup (`data-*` attributes written by
 * `paef_jupyter/ui/pieces.py`) and acts in the page; it needs nothing from the kernel:
 * - a line number, or a card's `line N` label, moves the cell's cursor to that line;
 * - a click anywhere on a card selects it (a live view: through its Show button, so the
 *   kernel lights the frames and lines; a static report: in the page);
 * - a card that becomes lit (a frame click, a top-list link) scrolls into view;
 * - a top-list link scrolls to its card and selects it;
 * - Copy buttons copy the fixed code; per-line table headers sort the table;
 * - focus stays on the card when a button it was on is disabled (Apply, Dismiss);
 * - the source column stays in view while the cards beside it scroll by.
 */
import { INotebookTracker, NotebookPanel } from '@jupyterlab/notebook';

import { compareKeys, linesOf } from './order';

const INTERACTIVE = 'button, a, input, textarea, select, summary, .paef-copy';

/** The notebook panel whose DOM holds `node`, else the current one. */
function panelOf(tracker: INotebookTracker, node: Element): NotebookPanel | null {
  return tracker.find(panel => panel.node.contains(node)) ?? tracker.currentWidget;
}

/** Activates the cell with `cellId` and puts its editor's cursor at the start of `line` (1-based). */
export async function gotoLine(
  tracker: INotebookTracker,
  from: Element,
  cellId: string,
  line: number
): Promise<boolean> {
  const panel = panelOf(tracker, from);
  if (!panel) {
    return false;
  }
  const notebook = panel.content;
  const index = notebook.widgets.findIndex(cell => cell.model.id === cellId);
  if (index < 0) {
    return false;
  }
  notebook.activeCellIndex = index;
  await notebook.scrollToItem(index, 'smart');
  const cell = notebook.widgets[index];
  await cell.ready;
  const editor = cell.editor;
  if (!editor) {
    return false;
  }
  const last = Math.max(editor.lineCount - 1, 0);
  const position = { line: Math.min(Math.max(line - 1, 0), last), column: 0 };
  notebook.mode = 'edit';
  editor.setCursorPosition(position);
  editor.revealPosition(position);
  editor.focus();
  return true;
}

async function copyText(text: string): Promise<void> {
  try {
    await navigator.clipboard.writeText(text);
    return;
  } catch {
    // No clipboard API (insecure context, no permission): the selection route.
  }
  const area = document.createElement('textarea');
  area.value = text;
  area.style.position = 'fixed';
  area.style.opacity = '0';
  document.body.appendChild(area);
  area.select();
  document.execCommand('copy');
  area.remove();
}

/** Sorts a per-line table by the clicked column; a second click reverses the order. */
export function sortTable(th: HTMLTableCellElement): void {
  const table = th.closest('table');
  const body = table?.tBodies[0];
  if (!table || !body) {
    return;
  }
  const col = Number(th.dataset.col);
  const numeric = th.dataset.type === 'number';
  const descending = th.getAttribute('aria-sort') !== 'descending';
  table.querySelectorAll('th').forEach(h => h.removeAttribute('aria-sort'));
  th.setAttribute('aria-sort', descending ? 'descending' : 'ascending');
  const rows = Array.from(body.rows);
  const key = (row: HTMLTableRowElement): string =>
    row.cells[col]?.dataset.sort ?? row.cells[col]?.textContent ?? '';
  rows.sort((a, b) => compareKeys(key(a), key(b), numeric, descending));
  rows.forEach(row => body.appendChild(row));
}

/** A static report's card: selected in the page, with its lines lit. */
function selectStatic(card: HTMLElement): void {
  const root = card.closest('.paef');
  const index = card.dataset.finding;
  if (!root || index === undefined) {
    return;
  }
  root.querySelectorAll<HTMLElement>('.paef-card').forEach(c => {
    c.classList.toggle('paef-selected', c === card);
    c.classList.remove('paef-linked', 'paef-dimmed');
  });
  root.querySelectorAll<HTMLElement>('.paef-line').forEach(l => {
    l.classList.toggle('paef-hl', linesOf(l.dataset.findings).includes(Number(index)));
  });
}

/** Selects a card: a live one through its Show button (unless already selected). */
function selectCard(card: Element): void {
  const box = card.closest<HTMLElement>('.paef-cardbox');
  if (box) {
    if (!box.classList.contains('paef-selected')) {
      box.querySelector<HTMLButtonElement>('button.paef-show')?.click();
    }
    return;
  }
  if (card instanceof HTMLElement && card.classList.contains('paef-card')) {
    selectStatic(card);
  }
}

function reveal(element: Element): void {
  element.scrollIntoView({ block: 'nearest', inline: 'nearest' });
}

function onClick(tracker: INotebookTracker, event: MouseEvent): void {
  const target = event.target instanceof Element ? event.target : null;
  if (!target || !target.closest('.paef')) {
    return;
  }
  const copy = target.closest<HTMLElement>('.paef-copy');
  if (copy) {
    event.preventDefault();
    void copyText(copy.dataset.copy ?? '').then(() => {
      copy.textContent = 'Copied';
      window.setTimeout(() => (copy.textContent = 'Copy'), 1500);
    });
    return;
  }
  const th = target.closest<HTMLTableCellElement>('.paef-lines th[data-col]');
  if (th) {
    sortTable(th);
    return;
  }
  const number = target.closest('.paef-ln');
  const unit = number?.closest<HTMLElement>('.paef-unit[data-cell-id]');
  const row = number?.closest<HTMLElement>('[data-line]');
  if (unit && row) {
    void gotoLine(tracker, target, unit.dataset.cellId!, Number(row.dataset.line));
    return;
  }
  const label = target.closest<HTMLElement>('.paef-loc[data-cell-id]');
  if (label) {
    void gotoLine(tracker, target, label.dataset.cellId!, Number(label.dataset.line));
    return;
  }
  const link = target.closest<HTMLAnchorElement>('.paef-top a[href^="#"]');
  if (link) {
    event.preventDefault();
    const card = document.getElementById(link.getAttribute('href')!.slice(1));
    if (card) {
      reveal(card);
      selectCard(card);
    }
    return;
  }
  if (target.closest(INTERACTIVE) || (window.getSelection()?.toString() ?? '') !== '') {
    return;
  }
  const card = target.closest('.paef-cardbox, .paef-static .paef-card');
  if (card) {
    selectCard(card);
  }
}

const LIT = ['paef-selected', 'paef-linked'];

/** Reacts to the kernel's changes of a live view: lit cards scroll into view, and focus
 * that a disabled button drops returns to its card. */
function watch(root: HTMLElement): void {
  let lastFocus: Element | null = null;
  root.addEventListener('focusin', event => {
    lastFocus = event.target instanceof Element ? event.target : null;
  });
  new MutationObserver(mutations => {
    let revealed = false;
    for (const m of mutations) {
      const el = m.target as HTMLElement;
      if (m.attributeName === 'class' && !revealed && el.classList.contains('paef-cardbox')) {
        const was = (m.oldValue ?? '').split(/\s+/);
        if (LIT.some(c => el.classList.contains(c)) && !LIT.some(c => was.includes(c))) {
          reveal(el);
          revealed = true;
        }
      } else if (m.attributeName === 'disabled' && el instanceof HTMLButtonElement && el.disabled) {
        const box = el.closest<HTMLElement>('.paef-cardbox');
        const lost = document.activeElement === el || document.activeElement === document.body;
        if (box && lastFocus === el && lost) {
          const next = Array.from(box.querySelectorAll<HTMLButtonElement>('button')).find(b => !b.disabled);
          if (next) {
            next.focus({ preventScroll: true });
          } else {
            box.tabIndex = -1;
            box.focus({ preventScroll: true });
          }
        }
      }
    }
  }).observe(root, {
    subtree: true,
    attributes: true,
    attributeFilter: ['class', 'disabled'],
    attributeOldValue: true
  });
}

/**
 * Keeps each source column beside its cards in view of the scrolled box. CSS `sticky` cannot:
 * the notebook's output areas are scroll boxes of their own (`overflow: auto`), which the
 * view must not change (plotly sizes itself by them).
 */
export function followScroll(scroller: Element): void {
  const view = scroller.getBoundingClientRect();
  scroller.querySelectorAll<HTMLElement>('.paef-box .paef-sources').forEach(sources => {
    const columns = sources.parentElement;
    if (!columns) {
      return;
    }
    const box = columns.getBoundingClientRect();
    const side = sources.getBoundingClientRect();
    const shift = parseFloat(sources.dataset.paefShift ?? '0');
    const natural = side.top - shift;
    const sideBySide = Math.abs(natural - box.top) < 40 && side.left > box.left + 10;
    const room = box.bottom - (natural + side.height);
    const next = sideBySide ? Math.max(0, Math.min(view.top - natural, room)) : 0;
    if (next !== shift) {
      sources.dataset.paefShift = String(next);
      sources.style.transform = next ? `translateY(${next}px)` : '';
    }
  });
}

export function installNavigation(tracker: INotebookTracker): void {
  document.body.classList.add('paef-js');
  document.addEventListener('click', event => onClick(tracker, event));
  let pending = false;
  document.addEventListener(
    'scroll',
    event => {
      const scroller = event.target instanceof Element ? event.target : null;
      if (!pending && scroller?.querySelector('.paef-box .paef-sources')) {
        pending = true;
        requestAnimationFrame(() => {
          pending = false;
          followScroll(scroller);
        });
      }
    },
    true
  );
  const seen = new WeakSet<NotebookPanel>();
  const add = (panel: NotebookPanel): void => {
    if (!seen.has(panel)) {
      seen.add(panel);
      watch(panel.content.node);
    }
  };
  tracker.forEach(add);
  tracker.widgetAdded.connect((_, panel) => add(panel));
}
