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

/** The part of a shared cell model an edit needs. */
export interface IEditableSource {
  getSource(): string;
  updateSource(start: number, end: number, value: string): void;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}

/** The message as a typed request, or null when it is not one this version understands. */
export function parseRequest(data: unknown): IHello | ReplaceCellRequest | null {
  if (!isRecord(data)) {
    return null;
  }
  if (data.type === 'hello' && typeof data.version === 'number') {
    return { type: 'hello', version: data.version };
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
