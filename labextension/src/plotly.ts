/**
 * plotly.js for the reports' flame charts, loaded as soon as a kernel loads paef (its `hello`
 * at `%load_ext`), while the user writes the next cell, rather than when the first report's
 * chart is drawn: a cold report then finds it parsed and ready.
 *
 * The chart (`paef_jupyter/ui/live_report.js`) takes it from `globalThis.__paefPlotly` (one
 * promise per page) and loads it itself where this extension does not run (VS Code, Colab).
 * A script element lets the browser compile the 1 MB bundle off the main thread.
 */
import { PageConfig, URLExt } from '@jupyterlab/coreutils';

/** The page-wide promise of plotly.js that the chart reads (live_report.js: `LOADED`). */
export const LOADED = '__paefPlotly';

type PlotlyHolder = { [LOADED]?: Promise<unknown> | null; Plotly?: unknown };

/** The bundle this extension serves beside its own code. */
export function plotlyUrl(labextensionsUrl: string): string {
  return URLExt.join(labextensionsUrl, 'paef-jupyter', 'plotly-basic.min.js');
}

/** Starts loading plotly.js once per page; a chart already loading it is left alone. */
export function preloadPlotly(holder: PlotlyHolder = globalThis as PlotlyHolder): void {
  if (holder[LOADED]) {
    return;
  }
  const loading = new Promise<unknown>((resolve, reject) => {
    const script = document.createElement('script');
    script.src = plotlyUrl(PageConfig.getOption('fullLabextensionsUrl'));
    script.async = true;
    script.onload = () =>
      holder.Plotly ? resolve(holder.Plotly) : reject(new Error('plotly.js did not define Plotly'));
    script.onerror = () => reject(new Error(`${script.src} could not be loaded`));
    document.head.appendChild(script);
  });
  loading.catch(() => {
    if (holder[LOADED] === loading) {
      holder[LOADED] = null; // the next chart loads it itself
    }
  });
  holder[LOADED] = loading;
}
