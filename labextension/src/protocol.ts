/**
 * The `paef_jupyter.cell_edit` comm protocol, version 1 (DESIGN.md), as pure functions.
 */

export const COMM_TARGET = 'paef_jupyter.cell_edit';
export const PROTOCOL_VERSION = 1;

export type ReplaceStatus = 'applied' | 'conflict' | 'not_found';

export interface IHello {
  type: 'hello';
  version: number;
}

export interface ReplaceCellRequest {
  type: 'replace_cell';
  request_id: string;
  cell_id: string;
  expected_source: string;
  new_source: string;
}

/**
 * Beside v1: a page loaded on a kernel whose comm is already open (a reload) takes the comm up
 * by id and sends `ready` and `notebook_state` without a hello (index.ts, `reattach`).
 *
 * Beside v1: the kernel keeps what the user said about findings (dismissed per cell, rules
 * silenced for the notebook) in metadata `paef`; `cell_id` null means the notebook's.
 */
export type JSONValue = null | boolean | number | string | JSONValue[] | { [key: string]: JSONValue };

export interface ISetMetadata {
  type: 'set_metadata';
  cell_id: string | null;
  value: { [key: string]: JSONValue };
}

/** The part of a shared cell model an edit needs. */
export interface IEditableSource {
  getSource(): string;
  updateSource(start: number, end: number, value: string): void;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}

/** The message as a typed request, or null when it is not one this version understands. */
export function parseRequest(
  data: unknown
): IHello | ReplaceCellRequest | ISetMetadata | null {
  if (!isRecord(data)) {
    return null;
  }
  if (data.type === 'hello' && typeof data.version === 'number') {
    return { type: 'hello', version: data.version };
  }
  if (
    data.type === 'set_metadata' &&
    (data.cell_id === null || typeof data.cell_id === 'string') &&
    isRecord(data.value) &&
    !Array.isArray(data.value)
  ) {
    return data as unknown as ISetMetadata;
  }
  const fields = ['request_id', 'cell_id', 'expected_source', 'new_source'];
  if (data.type === 'replace_cell' && fields.every(f => typeof data[f] === 'string')) {
    return data as unknown as ReplaceCellRequest;
  }
  return null;
}

/**
 * Writes `next` over the cell's text when it still reads `expected`.
 *
 * Only the differing middle is spliced in, so the cursor and the undo step stay local to
 * the change. A cell that already reads `next` counts as applied: a second front end on
 * the same kernel answering the same request must not turn a success into a conflict.
 */
export function applyReplacement(
  cell: IEditableSource,
  expected: string,
  next: string
): ReplaceStatus {
  const current = cell.getSource();
  if (current === next) {
    return 'applied';
  }
  if (current !== expected) {
    return 'conflict';
  }
  let start = 0;
  const limit = Math.min(current.length, next.length);
  while (start < limit && current[start] === next[start]) {
    start++;
  }
  let end = 0;
  while (
    end < limit - start &&
    current[current.length - 1 - end] === next[next.length - 1 - end]
  ) {
    end++;
  }
  cell.updateSource(start, current.length - end, next.slice(start, next.length - end));
  return 'applied';
}

/** What the notebook remembers, as the kernel reads it (`notebook_state`). */
export function notebookState(
  notebookMeta: unknown,
  cells: { id: string; meta: unknown }[]
): { type: 'notebook_state'; silenced: string[]; dismissed: Record<string, string[]> } {
  const strings = (value: unknown): string[] =>
    Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
  const dismissed: Record<string, string[]> = {};
  for (const cell of cells) {
    const keys = isRecord(cell.meta) ? strings(cell.meta.dismissed) : [];
    if (keys.length) {
      dismissed[cell.id] = keys;
    }
  }
  const silenced = isRecord(notebookMeta) ? strings(notebookMeta.silenced) : [];
  return { type: 'notebook_state', silenced, dismissed };
}
