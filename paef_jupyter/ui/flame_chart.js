// The live flame chart of a paef report (an anywidget view).
//
// The model holds only the figure as plain JSON and the bars' colours; plotly.js is loaded
// once per page and shared by every report: from the paef-jupyter labextension's folder where
// the front end serves it, else asked once from the kernel. A click on a bar goes back to the
// kernel as {type: "click", bar: <index>}.

const LOADED = "__paefPlotly";

function extensionUrl() {
  const config = document.getElementById("jupyter-config-data");
  if (!config) return null;
  try {
    const url = JSON.parse(config.textContent || "{}").fullLabextensionsUrl;
    return typeof url === "string" && url ? `${url.replace(/\/$/, "")}/paef-jupyter/plotly-basic.min.js` : null;
  } catch (e) {
    return null;
  }
}

// plotly.js's bundle is UMD: given `module`, it exports itself there. `new Function` runs it
// as a classic (non-strict) script, whatever the page's module loader (an AMD `define` in VS
// Code would otherwise capture it).
function evaluate(source) {
  const module = { exports: {} };
  new Function("module", "exports", "define", source).call(globalThis, module, module.exports, undefined);
  const plotly = module.exports;
  if (!plotly || typeof plotly.newPlot !== "function") throw new Error("not plotly.js");
  return plotly;
}

async function fromExtension() {
  const url = extensionUrl();
  if (!url) throw new Error("no labextension URL on this page");
  const response = await fetch(url, { credentials: "same-origin" });
  if (!response.ok) throw new Error(`${url}: ${response.status}`);
  return evaluate(await response.text());
}

function fromKernel(model) {
  return new Promise((resolve, reject) => {
    const onMessage = (msg) => {
      if (!msg || msg.type !== "plotly") return;
      model.off("msg:custom", onMessage);
      try {
        resolve(evaluate(String(msg.source)));
      } catch (e) {
        reject(e);
      }
    };
    model.on("msg:custom", onMessage);
    model.send({ type: "need_plotly" });
  });
}

// The labextension starts loading it when the kernel loads paef (labextension/src/plotly.ts),
// under the same name; a load that fails leaves the name empty for the next chart.
function plotly(model) {
  if (!globalThis[LOADED]) {
    const loading = fromExtension().catch(() => fromKernel(model));
    loading.catch(() => {
      if (globalThis[LOADED] === loading) globalThis[LOADED] = null; // the next chart tries again
    });
    globalThis[LOADED] = loading;
  }
  return globalThis[LOADED];
}

function paint(Plotly, gd, colors) {
  if (colors && Array.isArray(colors.fill) && Array.isArray(colors.outline)) {
    Plotly.restyle(gd, { "marker.color": [colors.fill], "marker.line.color": [colors.outline] }, [0]);
  }
}

async function render({ model, el }) {
  // Page-clock marks of the chart's steps (the browser suite reads them to say where a
  // report's first draw spends its time).
  performance.mark("paef-chart-render");
  const gd = document.createElement("div");
  gd.className = "paef-flame-live";
  // Never wider than the output column, even before a resize has caught up with it.
  gd.style.cssText = "width:100%;max-width:100%;overflow:hidden";
  el.style.minWidth = "0";
  el.style.maxWidth = "100%";
  gd.textContent = "drawing the flame chart\u2026";
  el.appendChild(gd);
  let Plotly;
  try {
    Plotly = await plotly(model);
  } catch (e) {
    gd.textContent = `The flame chart cannot be drawn here (${e}); the static report has it.`;
    return;
  }
  performance.mark("paef-chart-plotly");
  const figure = model.get("figure") || {};
  gd.textContent = "";
  await Plotly.newPlot(gd, figure.data || [], figure.layout || {}, {
    responsive: true,
    displaylogo: false,
    modeBarButtonsToRemove: ["select2d", "lasso2d"]
  });
  paint(Plotly, gd, model.get("colors"));
  gd.on("plotly_click", (event) => {
    const point = event && event.points && event.points[0];
    if (point && Number.isInteger(point.pointNumber)) {
      model.send({ type: "click", bar: point.pointNumber });
    }
  });
  const repaint = () => paint(Plotly, gd, model.get("colors"));
  model.on("change:colors", repaint);
  // The output column changes width without a window resize (side panels, Notebook 7).
  const resized = new ResizeObserver(() => {
    if (gd.isConnected && gd.clientWidth > 0) Plotly.Plots.resize(gd);
  });
  resized.observe(gd);
  return () => {
    resized.disconnect();
    model.off("change:colors", repaint);
    Plotly.purge(gd);
  };
}

export default { render };
