/**
 * Pure helpers of the report's navigation (no DOM): sort keys and finding lists.
 */

/** Compares two `data-sort` keys: as numbers for numeric columns (non-numbers last), else as text. */
export function compareKeys(a: string, b: string, numeric: boolean, descending: boolean): number {
  let order: number;
  if (numeric) {
    const x = parseFloat(a);
    const y = parseFloat(b);
    if (Number.isNaN(x) || Number.isNaN(y)) {
      return Number.isNaN(x) ? (Number.isNaN(y) ? 0 : 1) : -1;
    }
    order = x - y;
  } else {
    order = a.localeCompare(b);
  }
  return descending ? -order : order;
}

/** The finding indices of a `data-findings` attribute ("0 2"). */
export function linesOf(value: string | undefined): number[] {
  return value ? value.split(' ').filter(Boolean).map(Number) : [];
}
