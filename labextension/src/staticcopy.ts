/**
 * A report's static copy (the output a saved notebook, nbconvert and nbviewer show) follows
 * its live view: on Dismiss, Silence rule and their Undo the kernel rewrites it with
 * `update_display_data` (paef_jupyter/ui/widget.py). JupyterLab hands such an update only to
 * outputs this page displayed itself; after a reload on the same kernel the live view
 * re-attaches but its static copy came from the saved file, so the update would be lost.
 * Here it is matched by the report id in its HTML instead.
 */

/** The report id a static copy carries (`data-paef-report`), or null. */
export function reportId(html: unknown): string | null {
  const text = Array.isArray(html) ? html.join('') : html;
  if (typeof text !== 'string') {
    return null;
  }
  const match = /class="paef paef-static" data-paef-report="(\w+)"/.exec(text);
  return match ? match[1] : null;
}

/** The part of a cell's output list (IOutputAreaModel) this needs. */
export interface IOutputList {
  readonly length: number;
  get(index: number): { readonly data: { readonly [mime: string]: unknown } };
  set(index: number, output: { [key: string]: unknown }): void;
}

/**
 * Rewrites every output of `lists` that is the static copy of the report `update` carries,
 * unless it already reads the same; returns how many were rewritten.
 */
export function updateStaticCopies(
  lists: Iterable<IOutputList>,
  update: { data: { [mime: string]: unknown }; metadata?: { [key: string]: unknown } }
): number {
  const id = reportId(update.data['text/html']);
  if (id === null) {
    return 0;
  }
  let rewritten = 0;
  for (const outputs of lists) {
    for (let i = 0; i < outputs.length; i++) {
      const html = outputs.get(i).data['text/html'];
      if (reportId(html) === id && html !== update.data['text/html']) {
        outputs.set(i, { output_type: 'display_data', data: update.data, metadata: update.metadata ?? {} });
        rewritten++;
      }
    }
  }
  return rewritten;
}
